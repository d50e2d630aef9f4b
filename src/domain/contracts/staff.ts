import { z } from 'zod';

/** Staff only, under /api: what waits on Pacta staff, for their home page. */

const instant = z.string().describe('an ISO 8601 timestamp');
const dealLink = z.object({ dealId: z.guid(), title: z.string(), since: instant });

/** The scheduled jobs the server runs (pacta_private.job_backlog()), as staff read them. */
export const STAFF_JOBS = [
  'auto_release',
  'cancelled_refund',
  'review_publish',
  'auto_confirm',
  'push',
  'referral_payout',
] as const;

export const getStaffOverview = {
  summary: 'What waits on staff: open tickets, disputes, escrow to release, jobs behind',
  response: {
    200: z.object({
      /** Open tickets of every kind: questions, disputes' tickets, messages from the contact form. */
      tickets: z.object({ open: z.number().int(), highPriority: z.number().int(), oldestOpenAt: instant.nullable() }),
      /** Open disputes, oldest first (at most 20): each is settled from its deal's payment panel. */
      disputes: z.object({ count: z.number().int(), oldest: z.array(dealLink) }),
      /** Completed deals whose escrow is still held, oldest completion first (at most 20). */
      awaitingRelease: z.object({ count: z.number().int(), heldCents: z.number().int(), oldest: z.array(dealLink) }),
      /** Scheduled jobs whose oldest due item has waited over 10 minutes: the job keeps failing on it. */
      jobsBehind: z.array(z.object({ job: z.enum(STAFF_JOBS), dueItems: z.number().int(), oldestDueAt: instant })),
    }),
  },
};
export type StaffOverview = z.infer<(typeof getStaffOverview.response)[200]>;
