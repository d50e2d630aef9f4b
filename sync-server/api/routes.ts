import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.ts';
import { contactRoutes } from './contact.ts';
import { dealAccessRoutes } from './deal-access.ts';
import { reviewPublisher } from './review-publisher.ts';
import { pushRoutes } from '../push/push-routes.ts';
import { paymentRoutes } from '../payments/payment-routes.ts';
import { growthRoutes } from './growth.ts';
import { emailRoutes } from '../email/email-routes.ts';
import { searchRoutes } from './search.ts';
import { accountRoutes } from '../account/account-routes.ts';
import { reportRoutes } from '../account/report-routes.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { staffRoutes } from './staff.ts';

/** Online-only endpoints under /api (checkout, escrow and referral rewards come in later issues). */
export async function apiRoutes(
  app: FastifyInstance,
  opts: { ctx: AppContext; store: ObjectStore | undefined },
): Promise<void> {
  await app.register(contactRoutes, { ctx: opts.ctx });
  await app.register(dealAccessRoutes, { ctx: opts.ctx });
  await app.register(reviewPublisher, { ctx: opts.ctx });
  await app.register(pushRoutes, { ctx: opts.ctx });
  await app.register(paymentRoutes, { ctx: opts.ctx });
  await app.register(growthRoutes, { ctx: opts.ctx });
  await app.register(emailRoutes, { ctx: opts.ctx });
  await app.register(searchRoutes, { ctx: opts.ctx });
  await app.register(accountRoutes, { ctx: opts.ctx, store: opts.store });
  await app.register(reportRoutes, { ctx: opts.ctx });
  await app.register(staffRoutes, { ctx: opts.ctx });
}
