import { config } from 'zod';

// The server's Content-Security-Policy allows no eval. Zod's compiled fast path would probe for it on
// the first object parse (a CSP violation report on every signed-in page) and then fall back to the
// plain path anyway: take the plain path from the start. Imported first by main.tsx, because object
// schemas read this setting when their module is evaluated.
config({ jitless: true });
