import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { ServerConfig } from '../config.ts';

/**
 * Features no Pacta page uses, refused to the page and to anything it might embed. Only names
 * Chromium knows: an unknown one is reported on the console of every page.
 */
const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'display-capture=()',
].join(', ');

/**
 * Browser-side defences on every answer (the app shell, its files, /api, /auth/v1, /sync): sessions
 * live in localStorage, so one injected script would carry them away. The Content-Security-Policy
 * allows only the app's own scripts (no inline script: index.html loads one module, vite-plugin-pwa
 * registers nothing inline), its own styles, images from itself, data: and blob:, and requests to
 * itself (plus the hosted Supabase project when auth is hosted there); no page may frame Pacta.
 * HSTS only when the public address is https: sent over http on a developer's machine it would make
 * the browser refuse that host's plain-http servers for a year.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: ServerConfig): void {
  const https = new URL(config.publicUrl).protocol === 'https:';
  const hostedSupabase = config.auth.mode === 'hosted' ? [config.auth.supabaseUrl] : [];
  const connectSrc = ["'self'", ...hostedSupabase];
  const headers = headersOf(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          // Avatars, logos and portfolio media come from the hosted project's Storage when it is used; a file
          // picked on this device shows from its local copy (an object URL) until it is uploaded.
          imgSrc: ["'self'", 'data:', 'blob:', ...hostedSupabase],
          mediaSrc: ["'self'", 'blob:', ...hostedSupabase],
          fontSrc: ["'self'"],
          connectSrc,
          workerSrc: ["'self'"],
          manifestSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
      // The app opens Stripe's pages by navigation, never in a popup it keeps a handle on.
      crossOriginOpenerPolicy: { policy: 'same-origin' },
    }),
  );
  headers.set('permissions-policy', PERMISSIONS_POLICY);
  // Set on the raw response, so the change stream and the snapshot stream, which write their own
  // heads, carry them too.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.raw.setHeaders(headers);
    done();
  });
}

/**
 * The headers helmet's middleware sets, read once: they depend on the configuration only (no CSP
 * nonces), and building the middleware, which @fastify/helmet did on every request, was ~10 % of the
 * server's CPU in a burst of 5,000 catalog pulls (the CSP directives parsed anew each time).
 */
function headersOf(middleware: ReturnType<typeof helmet>): Map<string, string> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
    removeHeader: () => {},
  };
  middleware({} as never, recorder as unknown as ServerResponse, () => {});
  return headers;
}
