import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.ts';

// Placeholder until the Supabase-compatible auth issue lands.
export async function authRoutes(_app: FastifyInstance, _opts: { ctx: AppContext }): Promise<void> {}
