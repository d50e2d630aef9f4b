import { z } from 'zod';

/**
 * GET /api/deals/:id/access: what a signed-in user may know about a deal that is not on their device.
 * `visible`: the user may read it, and `deal` is the row as sync sends it (the client parses it with
 * the deals collection's schema); `pro_only`: an open or completed Pro-only deal the user cannot read;
 * `not_found` otherwise. An answer, not a refusal: a stale link is not an error.
 */
export const getDealAccess = {
  summary: 'What the user may know about a deal that is not on their device',
  params: z.object({ id: z.guid() }),
  response: {
    200: z.object({
      access: z.enum(['visible', 'pro_only', 'not_found']),
      deal: z.record(z.string(), z.unknown()).optional(),
    }),
  },
};

/**
 * POST /api/deals/:id/keep: the device keeps a deal the user opened from an online search. The deal
 * joins the user's working set and the next deals pull brings it, so it then opens offline. 404
 * `deal_not_found` for a deal the user may not read (or that does not exist: no oracle); 409
 * `kept_deals_full` past the opened keeps a user may have (1,000, kept while their deals are open).
 */
export const keepDeal = {
  summary: 'Keep a deal on the user’s devices',
  params: z.object({ id: z.guid() }),
  response: {
    200: z.object({ kept: z.literal(true) }),
  },
};
