import { randomBytes } from 'node:crypto';
import { createClient, type AuthChangeEvent, type SupabaseClient } from '@supabase/supabase-js';
import { startTestServer, type TestServer } from '../support/test-server.ts';

/**
 * Where the auth contract suite runs: the local /auth/v1 (default), or a hosted Supabase project when
 * SUPABASE_CONTRACT_URL and SUPABASE_CONTRACT_ANON_KEY are set. SUPABASE_CONTRACT_EMAIL_CONFIRMATION
 * (on|off, default on) says which sign-up mode that project runs, so only the matching half runs there.
 */
export const hosted = Boolean(process.env.SUPABASE_CONTRACT_URL);
export const hostedConfirmation = (process.env.SUPABASE_CONTRACT_EMAIL_CONFIRMATION ?? 'on') === 'on';
const emailDomain = process.env.SUPABASE_CONTRACT_EMAIL_DOMAIN ?? 'example.test';

export type MailboxMessage = {
  id: string;
  to: string;
  kind: 'signup' | 'recovery';
  subject: string;
  text: string;
  html: string;
  action_link: string;
  token_hash: string;
  otp: string;
  created_at: string;
};

class NoRealtime {
  constructor() {
    throw new Error('Realtime is not used by the auth contract suite');
  }
}

export type ContractTarget = {
  url: string;
  anonKey: string;
  /** The local server (undefined against a hosted project). */
  server: TestServer | undefined;
  client(): TrackedClient;
  mailbox(email: string): Promise<MailboxMessage[]>;
  close(): Promise<void>;
};

export type TrackedClient = { supabase: SupabaseClient; events: AuthChangeEvent[] };

export const newEmail = (label: string) => `contract-${label}-${randomBytes(5).toString('hex')}@${emailDomain}`;

export async function startContractTarget(opts: { emailConfirmation: boolean }): Promise<ContractTarget> {
  let url: string;
  let anonKey: string;
  let server: TestServer | undefined;
  if (hosted) {
    url = process.env.SUPABASE_CONTRACT_URL!.replace(/\/$/, '');
    anonKey = process.env.SUPABASE_CONTRACT_ANON_KEY ?? '';
  } else {
    server = await startTestServer({
      env: {
        EMAIL_CONFIRMATION: opts.emailConfirmation ? 'on' : 'off',
        // The suite signs in often from one address; abuse limits have their own test.
        AUTH_RATE_LIMIT_SIGN_IN_PER_IP: '10000',
        AUTH_RATE_LIMIT_SIGN_IN_PER_IP_AND_EMAIL: '10000',
        AUTH_RATE_LIMIT_SIGN_UP_PER_IP: '10000',
        AUTH_RATE_LIMIT_EMAIL_PER_IP: '10000',
        AUTH_RATE_LIMIT_VERIFY_PER_IP: '10000',
        AUTH_RATE_LIMIT_VERIFY_PER_EMAIL: '10000',
        AUTH_EMAIL_MIN_INTERVAL_SECONDS: '0',
        AUTH_REFRESH_TOKEN_REUSE_INTERVAL_SECONDS: '0',
      },
    });
    url = server.url;
    // Locally any anon key is accepted (the apikey header is not checked): this is just a label.
    anonKey = 'local-anon-key';
  }
  return {
    url,
    anonKey,
    server,
    client() {
      const store = new Map<string, string>();
      const supabase = createClient(url, anonKey, {
        auth: {
          storage: {
            getItem: (k) => store.get(k) ?? null,
            setItem: (k, v) => void store.set(k, v),
            removeItem: (k) => void store.delete(k),
          },
          persistSession: true,
          autoRefreshToken: false,
          detectSessionInUrl: false,
        },
        // Node 20 has no global WebSocket and the auth suite never opens Realtime: a transport that
        // refuses to connect keeps supabase-js from failing at construction.
        realtime: { transport: NoRealtime as never },
      });
      const events: AuthChangeEvent[] = [];
      supabase.auth.onAuthStateChange((event) => {
        events.push(event);
      });
      return { supabase, events };
    },
    async mailbox(email) {
      const res = await fetch(`${url}/auth/v1/dev/mailbox.json?email=${encodeURIComponent(email)}`);
      if (!res.ok) throw new Error(`mailbox answered ${res.status}`);
      return ((await res.json()) as { messages: MailboxMessage[] }).messages;
    },
    close: async () => server?.close(),
  };
}

/** The claims of a JWT, unverified (the suite checks their shape; verification has its own tests). */
export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(h!, 'base64url').toString('utf8')),
    payload: JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')),
  };
}
