import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.ts';

// Placeholder until the replication protocol lands.
export async function syncRoutes(_app: FastifyInstance, _opts: { ctx: AppContext }): Promise<void> {}
