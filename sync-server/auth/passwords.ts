import bcrypt from 'bcryptjs';
import { authError, validationFailed } from './errors.ts';

/** GoTrue's cost; its `$2a$` hashes (and pgcrypto's `crypt(…, gen_salt('bf'))`) verify here and back. */
const BCRYPT_COST = 10;
export const MIN_PASSWORD_LENGTH = 8;
/** bcrypt ignores bytes past 72: longer passwords would silently be truncated, so they are refused. */
const MAX_PASSWORD_BYTES = 72;
// Compared against when the account does not exist, so both paths take a bcrypt's time (no enumeration).
const DUMMY_HASH = bcrypt.hashSync('pacta-no-such-user', BCRYPT_COST);

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
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

/** True when `password` matches the stored bcrypt hash; an absent hash never matches. */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  const usable = typeof hash === 'string' && /^\$2[aby]\$\d\d\$/.test(hash);
  const ok = await bcrypt.compare(password, usable ? hash : DUMMY_HASH);
  return usable && ok;
}
