import type { Tx } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';

/**
 * The server's authorization questions, one helper each, asked in one order everywhere:
 *
 * 1. Who asks: a valid bearer token (the routes' `signedIn` hook; 401).
 * 2. A question about no row ("is staff"): `requireAdmin`, 403 `admin_only` before any row is read,
 *    so the answer is the same whether the row exists or not.
 * 3. A question about a row: `requireDealRole`. Whoever is not a party to the deal (its brand, an
 *    accepted creator, the creator it paid) nor staff gets 404 `deal_not_found`, exactly the answer
 *    for a deal that does not exist: existence is hidden first, so a refusal never tells a stranger
 *    that a deal exists. Only a party learns "not your part" (403 with the action's words).
 * 4. The rules of the state the row is in (409), for those allowed to act.
 */

/** Is this user Pacta staff? The database's one definition (`pacta_private.is_admin_user`, also behind `public.is_admin()`). */
export async function isAdmin(tx: Tx, userId: string): Promise<boolean> {
  const { rows } = await tx.query<{ admin: boolean }>('select pacta_private.is_admin_user($1) as admin', [userId]);
  return rows[0]?.admin === true;
}

/** Staff only: 403 `admin_only` (with the action's words) for anyone else. */
export async function requireAdmin(tx: Tx, userId: string, message?: string): Promise<void> {
  if (!(await isAdmin(tx, userId))) throw new HttpError(403, 'admin_only', message);
}

/** Who the caller is to a deal: its brand, one of its accepted creators, or staff. */
export type DealRole = 'brand' | 'creator' | 'admin';

type DealParties = {
  brand_id: string;
  selected_creator_ids: readonly string[];
  winner_id?: string | null;
  deleted?: boolean;
};

/** The caller's role in the deal, or undefined when they are none of its parties (staff not counted). */
export function partyRole(deal: DealParties, userId: string): Exclude<DealRole, 'admin'> | undefined {
  if (deal.brand_id === userId) return 'brand';
  if (deal.selected_creator_ids.includes(userId) || deal.winner_id === userId) return 'creator';
  return undefined;
}

/**
 * The caller's role in the deal, when it is one of `allowed`. 404 `deal_not_found` when the deal does
 * not exist, is deleted, or the caller is neither a party nor staff (the same answer); 403 `refusal`
 * when they are a party (or staff) without the right to this action.
 */
export async function requireDealRole(
  tx: Tx,
  userId: string,
  deal: DealParties | undefined,
  allowed: readonly DealRole[],
  refusal: HttpError<'not_deal_owner' | 'not_a_participant'>,
): Promise<DealRole> {
  const role: DealRole | undefined =
    deal && !deal.deleted
      ? (partyRole(deal, userId) ?? ((await isAdmin(tx, userId)) ? 'admin' : undefined))
      : undefined;
  if (!role) throw new HttpError(404, 'deal_not_found');
  if (allowed.includes(role)) return role;
  // A party who is also staff acts as staff where staff may.
  if (role !== 'admin' && allowed.includes('admin') && (await isAdmin(tx, userId))) return 'admin';
  throw refusal;
}
