import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Why a push endpoint is refused: its `code` and the sentence the caller gets. */
export class PushEndpointRefused extends Error {
  constructor(
    readonly code:
      | 'push_endpoint_not_https'
      | 'push_endpoint_invalid'
      | 'push_endpoint_not_public'
      /** The host name did not resolve: maybe for a moment only, so a stored subscription is kept. */
      | 'push_endpoint_not_found',
    message: string,
  ) {
    super(message);
  }
}

/** Where a push request goes: the URL, and the one address it connects to (the address that was checked). */
export type CheckedEndpoint = { url: URL; address: string; family: 4 | 6 };

/**
 * Push endpoints the test suite's own push service uses (exact origins), allowed past the checks.
 * Only a test builds a server with any; no setting reads it from the environment.
 */
export type PushEndpointPolicy = { trustedOrigins: readonly string[] };

type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

const resolveAll: Resolve = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * A push endpoint is a URL the server POSTs to on the user's behalf, so it must not reach anything but
 * the open internet: https on the default port, no credentials in it, and every address its host
 * resolves to a public unicast one (ipaddr.js's ranges: loopback, private, link-local, unique-local,
 * CGNAT, multicast, reserved, documentation… are all refused; an IPv4 address mapped into IPv6 is
 * judged as the IPv4 one). Called when a device subscribes and again before every push, since the
 * name may resolve elsewhere by then; the request then connects to the address checked here.
 */
export async function checkPushEndpoint(
  endpoint: string,
  policy: PushEndpointPolicy,
  resolve: Resolve = resolveAll,
): Promise<CheckedEndpoint> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new PushEndpointRefused('push_endpoint_invalid', 'The push endpoint is not a valid URL.');
  }
  const trusted = policy.trustedOrigins.includes(url.origin);
  if (!trusted) {
    if (url.protocol !== 'https:') {
      throw new PushEndpointRefused('push_endpoint_not_https', 'The push endpoint must be an https:// URL.');
    }
    if (url.username || url.password || url.port) {
      throw new PushEndpointRefused(
        'push_endpoint_invalid',
        'The push endpoint must be a plain https:// URL on the default port, without a user name or password.',
      );
    }
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new PushEndpointRefused('push_endpoint_not_found', `The push endpoint's host ${host} could not be found.`);
    }
  }
  if (addresses.length === 0) {
    throw new PushEndpointRefused('push_endpoint_not_found', `The push endpoint's host ${host} could not be found.`);
  }
  if (!trusted && !addresses.every((a) => isPublicAddress(a.address))) {
    throw new PushEndpointRefused(
      'push_endpoint_not_public',
      'The push endpoint must be on the public internet, not a local or private address.',
    );
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A public unicast address: what ipaddr.js calls 'unicast', after unwrapping an IPv4-mapped IPv6 one. */
function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress()) parsed = parsed.toIPv4Address();
  return parsed.range() === 'unicast';
}
