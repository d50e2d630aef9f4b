import { z } from 'zod';

/** GET /api/health: whether Pacta is up and whether it takes payments (no versions of anything). */
export const getHealth = {
  summary: 'Whether the server and its database are up, and whether payments are offered',
  response: {
    200: z.object({
      status: z.literal('ok'),
      database: z.object({ reachable: z.literal(true) }),
      payments: z.enum(['available', 'unavailable']),
    }),
    503: z.object({
      status: z.literal('unavailable'),
      database: z.object({ reachable: z.literal(false) }),
      payments: z.enum(['available', 'unavailable']),
    }),
  },
};
/** Either answer: the client reads `payments` from both. */
export const healthAnswer = z.union([getHealth.response[200], getHealth.response[503]]);
