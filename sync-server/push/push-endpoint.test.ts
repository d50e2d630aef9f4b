import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { deliverPush } from './push-delivery.ts';
import { checkPushEndpoint } from './push-endpoint.ts';

const none = { trustedOrigins: [] };

test('a host is allowed only when every address it resolves to is public', async () => {
  const resolvesTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  await expect(
    checkPushEndpoint('https://push.example.com/x', none, resolvesTo('93.184.216.34')),
  ).resolves.toMatchObject({ address: '93.184.216.34', family: 4 });
  // One public and one private answer: the request could go to either, so it is refused.
  await expect(
    checkPushEndpoint('https://push.example.com/x', none, resolvesTo('93.184.216.34', '10.0.0.7')),
  ).rejects.toMatchObject({ code: 'push_endpoint_not_public' });
  await expect(
    checkPushEndpoint('https://push.example.com/x', none, resolvesTo('64:ff9b::a00:1')),
  ).rejects.toMatchObject({ code: 'push_endpoint_not_public' });
  await expect(checkPushEndpoint('https://push.example.com/x', none, resolvesTo())).rejects.toMatchObject({
    code: 'push_endpoint_not_found',
  });
  await expect(
    checkPushEndpoint('https://push.example.com/x', none, () => Promise.reject(new Error('ENOTFOUND'))),
  ).rejects.toMatchObject({ code: 'push_endpoint_not_found' });
});

test('the push request connects to the checked address, whatever the name resolves to now', async () => {
  const hosts: string[] = [];
  const service = http.createServer((req, res) => {
    hosts.push(String(req.headers.host));
    req.resume();
    res.statusCode = 201;
    res.end();
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  try {
    const port = (service.address() as AddressInfo).port;
    // `.invalid` never resolves (RFC 6761): the request can only have reached the pinned address.
    const url = new URL(`http://push.invalid:${port}/device`);
    const status = await deliverPush(
      { url, address: '127.0.0.1', family: 4 },
      { method: 'POST', headers: { ttl: 60 }, body: Buffer.from('x') },
    );
    expect(status).toBe(201);
    expect(hosts).toEqual([`push.invalid:${port}`]);
  } finally {
    await new Promise((resolve) => service.close(resolve));
  }
});
