import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.ts';

/** Online-only endpoints (checkout, escrow, referral rewards) land here in later issues. */
export async function apiRoutes(_app: FastifyInstance, _opts: { ctx: AppContext }): Promise<void> {}
