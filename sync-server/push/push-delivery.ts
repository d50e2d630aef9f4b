import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedEndpoint } from './push-endpoint.ts';

type PushRequest = { method: string; headers: Record<string, string | number>; body: Buffer | null };

/**
 * Sends one push request to the address `checkPushEndpoint` approved, never to whatever the name
 * resolves to a moment later: the connection's lookup answers with that address, while TLS still
 * verifies the certificate against the endpoint's host name. Redirects are not followed. Resolves with
 * the push service's status code.
 */
export function deliverPush(target: CheckedEndpoint, request: PushRequest, timeoutMs = 10_000): Promise<number> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const send = target.url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(
      target.url,
      { method: request.method, headers: request.headers, lookup: pinned, timeout: timeoutMs, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('push request timed out')));
    req.on('error', reject);
    req.end(request.body ?? undefined);
  });
}
