import { ruleRefusal } from '../db/rule-refusal.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app.ts';
import { claimsOf, signedIn } from '../auth/signed-in.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { HttpError } from '../http/errors.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import {
  DELETION_BLOCKERS,
  DELETION_CONFIRMATION,
  getAccountDeletion,
  getAccountExport,
  postAccountDeletion,
  type DeletionBlocker,
} from '../../src/domain/contracts/account.ts';
import { readAccountExport } from './account-export.ts';

/** Exports one account may download per hour: each reads everything the person has. */
const EXPORTS_PER_HOUR = 5;
/** Deletion attempts per account per hour: each wrong password is a guess at it. */
const DELETE_ATTEMPTS_PER_HOUR = 5;

const isBlocker = (code: string): code is DeletionBlocker => (DELETION_BLOCKERS as readonly string[]).includes(code);

async function consumeOr429(
  consume: () => Promise<void>,
  code: 'export_rate_limited' | 'account_delete_rate_limited' | 'report_rate_limited',
) {
  try {
    await consume();
  } catch (err) {
    if (!(err instanceof HttpError && err.status === 429)) throw err;
    throw new HttpError(429, code);
  }
}

/**
 * The signed-in user's own account: `GET /api/account/export` (a JSON download of their data),
 * `GET /api/account/deletion` (whether it may be deleted now) and `POST /api/account/delete`.
 * Who asks comes first (`signedIn`); the rules of deletion and what it removes are the database's
 * (`pacta_private.delete_account`), in one transaction; the stored files' bytes follow once it commits.
 */
export async function accountRoutes(
  app: FastifyInstance,
  { ctx, store }: { ctx: AppContext; store: ObjectStore | undefined },
): Promise<void> {
  const limiter = createRateLimiter(ctx.db, 3600);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(ctx);

  api.get('/account/export', { schema: getAccountExport, preValidation }, async (request, reply) => {
    const userId = claimsOf(request).sub;
    await consumeOr429(() => limiter.consume('account_export_user', userId, EXPORTS_PER_HOUR), 'export_rate_limited');
    const data = await ctx.db.asService((tx) => readAccountExport(tx, userId));
    const day = data.exported_at.slice(0, 10);
    return reply
      .header('content-disposition', `attachment; filename="pacta-data-${day}.json"`)
      .header('cache-control', 'no-store')
      .send(data);
  });

  api.get('/account/deletion', { schema: getAccountDeletion, preValidation }, async (request) => {
    const userId = claimsOf(request).sub;
    return ctx.db.asService(async (tx) => {
      const { rows } = await tx.query<{ blockers: string[]; needs_password: boolean }>(
        `select pacta_private.account_deletion_blockers($1) as blockers,
                coalesce((select u.encrypted_password ~ '^\\$2[aby]\\$' from auth.users u where u.id = $1), false) as needs_password`,
        [userId],
      );
      return { blockers: rows[0]!.blockers.filter(isBlocker), needs_password: rows[0]!.needs_password };
    });
  });

  api.post('/account/delete', { schema: postAccountDeletion, preValidation }, async (request) => {
    const userId = claimsOf(request).sub;
    if (request.body.confirmation.trim() !== DELETION_CONFIRMATION) throw new HttpError(400, 'confirmation_required');
    await consumeOr429(
      () => limiter.consume('account_delete_user', userId, DELETE_ATTEMPTS_PER_HOUR),
      'account_delete_rate_limited',
    );
    const removed = await ctx.db.asService(async (tx) => {
      const { rows } = await tx.query<{ encrypted_password: string | null }>(
        `select encrypted_password from auth.users where id = $1 and deleted_at is null for update`,
        [userId],
      );
      const stored = rows[0]?.encrypted_password ?? null;
      // An account with a password confirms with it; one without (made by an operator) by typing alone.
      if (stored && /^\$2[aby]\$/.test(stored) && !(await verifyPassword(request.body.password ?? '', stored))) {
        throw new HttpError(400, 'current_password_invalid', 'Your password is incorrect.');
      }
      try {
        const files = await tx.query<{ bucket_id: string; version: string | null }>(
          `select bucket_id, version from pacta_private.delete_account($1)`,
          [userId],
        );
        return files.rows;
      } catch (err) {
        const refusal = ruleRefusal(err);
        if (refusal && isBlocker(refusal.code)) {
          const blockers = refusal.message.split(',').filter(isBlocker);
          throw new HttpError(409, refusal.code, undefined, { blockers });
        }
        throw err;
      }
    });
    // The rows are gone (committed): their files follow. A file left by a crash here is unreachable.
    await store?.remove(
      removed.flatMap((r) => (r.version ? [`${r.bucket_id}/${r.version}`, `${r.bucket_id}/${r.version}.thumb`] : [])),
    );
    request.log.info({ event: 'account_deleted', userId, files: removed.length }, 'account deleted');
    return { deleted: true as const };
  });
}
