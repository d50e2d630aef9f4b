import { afterEach, expect, test, vi } from 'vitest';
import { createSyncApi } from './sync-api.ts';

afterEach(() => vi.unstubAllGlobals());

test('no request goes out while the browser says it is offline; the same call goes out once it is back', async () => {
  const sent: string[] = [];
  const api = createSyncApi({
    serverUrl: 'http://sync.test',
    getAccessToken: () => 'token',
    fetch: async (input) => {
      sent.push(String(input));
      return new Response(JSON.stringify({ documents: [], checkpoint: null }), { status: 200 });
    },
  });
  vi.stubGlobal('navigator', { onLine: false });
  await expect(api.pull('deals', null, 10)).rejects.toThrow(TypeError);
  await expect(api.push('deals', [])).rejects.toThrow(TypeError);
  await expect(api.fetch(api.streamUrl)).rejects.toThrow(TypeError);
  expect(sent).toEqual([]);

  vi.stubGlobal('navigator', { onLine: true });
  await expect(api.pull('deals', null, 10)).resolves.toEqual({ documents: [], checkpoint: null });
  expect(sent).toEqual(['http://sync.test/sync/v1/deals/pull?limit=10']);
});
