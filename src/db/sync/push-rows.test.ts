import { expect, test } from 'vitest';
import { SyncHttpError, type PushRow, type SyncDoc } from '../sync-api.ts';
import { pushRows } from './push-rows.ts';

const row = (id: string, fields: Record<string, unknown> = {}): PushRow => ({
  newDocumentState: { id, _deleted: false, ...fields },
  assumedMasterState: { id, _deleted: false, title: `server ${id}` },
});

/** A server that refuses any batch holding a row titled 'bad' (status and code as given). */
function server(status: number, code: string) {
  const requests: string[][] = [];
  return {
    requests,
    push(_name: string, rows: PushRow[]): Promise<{ conflicts: SyncDoc[] }> {
      requests.push(rows.map((r) => r.newDocumentState.id));
      if (rows.some((r) => r.newDocumentState.title === 'bad'))
        return Promise.reject(new SyncHttpError(status, code, 'Refused'));
      return Promise.resolve({ conflicts: [] });
    },
  };
}

test('a batch refused for one row is sent row by row: the others go, the refused one comes back with its reason', async () => {
  const api = server(403, 'server_owned_field');
  const conflicts = await pushRows(api, 'deals', [row('a'), row('b', { title: 'bad' }), row('c')]);
  expect(api.requests).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
  expect(conflicts).toEqual([
    { id: 'b', _deleted: false, title: 'server b', sync_rejection: { code: 'server_owned_field', message: 'Refused' } },
  ]);
});

test('a row outside the user’s scope comes back removed', async () => {
  const [refused] = await pushRows(server(403, 'out_of_scope'), 'deals', [row('x', { title: 'bad' })]);
  expect(refused).toMatchObject({ id: 'x', _deleted: true, sync_rejection: { code: 'out_of_scope' } });
});

test('a failure of the request itself (server error, no connection) is thrown for RxDB to retry, nothing refused', async () => {
  const api = server(500, 'internal');
  await expect(pushRows(api, 'deals', [row('a'), row('b', { title: 'bad' })])).rejects.toThrow(SyncHttpError);
  expect(api.requests).toHaveLength(1);
  const offline = { push: () => Promise.reject(new TypeError('Failed to fetch')) };
  await expect(pushRows(offline, 'deals', [row('a')])).rejects.toThrow('Failed to fetch');
});
