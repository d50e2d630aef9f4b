import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[] };
type Operation = {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

const responseSchema = (doc: Document, path: string, method: string, status: string): Schema =>
  doc.paths[path]![method]!.responses[status]!.content!['application/json']!.schema;

test('GET /api/openapi.json describes the /api routes from the same schemas they validate and answer with', async () => {
  const res = await fetch(`${server.url}/api/openapi.json`);
  expect(res.status).toBe(200);
  const doc = (await res.json()) as Document;
  expect(doc.openapi).toBe('3.1.0');

  const health = responseSchema(doc, '/api/health', 'get', '200');
  expect(health.properties!.payments!.enum).toEqual(['available', 'unavailable']);

  const access = doc.paths['/api/deals/{id}/access']!.get!;
  expect(access.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path' }));
  expect(responseSchema(doc, '/api/deals/{id}/access', 'get', '200').properties!.access!.enum).toEqual([
    'visible',
    'pro_only',
    'not_found',
  ]);

  const contact = doc.paths['/api/contact']!.post!.requestBody!.content['application/json']!.schema;
  expect(contact.required).toEqual(expect.arrayContaining(['name', 'email', 'subject', 'message']));

  // The payment view: the 24 fields the billing screens read, from the contract both ends use.
  const payment = responseSchema(doc, '/api/deals/{id}/payment', 'get', '200');
  expect(payment.required).toEqual(
    expect.arrayContaining(['dealId', 'escrowStatus', 'amountCents', 'brandTotalCents', 'canRelease', 'viewer']),
  );
  expect(payment.properties!.escrowStatus!.enum).toEqual(['none', 'pending', 'released', 'refunded', 'disputed']);

  // Search: the query string's filters and one page of documents, as the device holds them.
  const dealSearch = doc.paths['/api/search/deals']!.get!;
  expect(dealSearch.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['q', 'category', 'sort', 'limit']));
  expect(responseSchema(doc, '/api/search/deals', 'get', '200').required).toEqual(['deals', 'next_offset']);
  const creatorSearch = doc.paths['/api/search/creators']!.get!;
  expect(creatorSearch.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['q', 'min_rating', 'region']));
  expect(responseSchema(doc, '/api/search/creators', 'get', '200').required).toEqual(['creators', 'next_offset']);

  // E-mail preferences: each kind with its label, and the one switch the PUT turns.
  expect(responseSchema(doc, '/api/email/preferences', 'get', '200').required).toEqual(['emails']);
  const preference = doc.paths['/api/email/preferences']!.put!.requestBody!.content['application/json']!.schema;
  expect(preference.required).toEqual(expect.arrayContaining(['kind', 'enabled']));
  expect(preference.properties!.kind!.enum).toContain('offer');

  // Only /api: the sync protocol, the local auth, storage and the Stripe webhook are not part of it.
  const paths = Object.keys(doc.paths);
  expect(paths.every((p) => p.startsWith('/api/'))).toBe(true);
  expect(paths).not.toContain('/api/stripe/webhook');
});
