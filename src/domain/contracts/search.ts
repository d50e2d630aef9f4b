import { creatorSearchRequest, creatorSearchResponse, dealSearchRequest, dealSearchResponse } from '../search.ts';

/**
 * GET /api/search/deals and GET /api/search/creators: the server's half of search, for what the
 * device does not hold. The query strings and answers are the schemas of `src/domain/search.ts`, where
 * the rest of searching (words, highlights, merging the device's results) lives beside them.
 */
export const getDealSearch = {
  summary: 'Open deals matching a text and the deals list’s filters, one page',
  querystring: dealSearchRequest,
  response: { 200: dealSearchResponse },
};

export const getCreatorSearch = {
  summary: 'Creators matching a text and filters, one page',
  querystring: creatorSearchRequest,
  response: { 200: creatorSearchResponse },
};
