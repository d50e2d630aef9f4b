import { hash, hashSync, verify } from '@node-rs/bcrypt';
import { dictionary } from '@zxcvbn-ts/language-common';
import { authError, validationFailed } from './errors.ts';

/** GoTrue's cost; its `$2a$` hashes (and pgcrypto's `crypt(…, gen_salt('bf'))`) verify here and back. */
const BCRYPT_COST = 10;
export const MIN_PASSWORD_LENGTH = 8;
/** bcrypt ignores bytes past 72: longer passwords would silently be truncated, so they are refused. */
const MAX_PASSWORD_BYTES = 72;
// Compared against when the account does not exist, so both paths take a bcrypt's time (no enumeration).
const DUMMY_HASH = asGoTrueHash(hashSync('pacta-no-such-user', BCRYPT_COST));

/**
 * The most common passwords (zxcvbn-ts's list of about 49,000, from leaked password sets), shipped in
 * the package: checked without any call outside. Compared case-insensitively, so "Password" is as
 * refused as "password".
 */
const COMMON_PASSWORDS = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

/** Throws Supabase's `weak_password` (422, with reasons) or `validation_failed` for an unusable password. */
export function assertAcceptablePassword(password: string): void {
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw validationFailed(`Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`);
  }
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw authError(422, 'weak_password', `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, {
      weak_password: { reasons: ['length'] },
    });
  }
  if (COMMON_PASSWORDS.has(password.toLowerCase())) {
    // GoTrue's answer for a password found in a breach list (its "pwned" reason), word for word.
    throw authError(
      422,
      'weak_password',
      'Password is known to be weak and easy to guess, please choose a different one.',
      {
        weak_password: { reasons: ['pwned'] },
      },
    );
  }
}

/** bcrypt off the event loop (native, libuv thread pool), so sign-ins do not stall sync traffic. */
export async function hashPassword(password: string): Promise<string> {
  return asGoTrueHash(await hash(password, BCRYPT_COST));
}

/**
 * The native library writes the `$2y$` prefix; GoTrue (Go's bcrypt) and pgcrypto write and read `$2a$`.
 * For passwords of at most 72 bytes (enforced above) the variants compute the same hash, so only the
 * prefix is rewritten, keeping hashes portable between this server and hosted Supabase.
 */
function asGoTrueHash(bcryptHash: string): string {
  return bcryptHash.replace(/^\$2[by]\$/, () => '$2a$');
}

/** True when `password` matches the stored bcrypt hash; an absent hash never matches. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const usable = typeof stored === 'string' && /^\$2[aby]\$\d\d\$/.test(stored);
  const ok = await verify(password, usable ? stored : DUMMY_HASH);
  return usable && ok;
}
