import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JwtClaims } from '../db/database.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified claims of a route with the `signedIn` hook. */
    pactaClaims: JwtClaims | null;
  }
}

export function decorateClaims(app: FastifyInstance): void {
  app.decorateRequest('pactaClaims', null);
}

/**
 * A route's `preValidation` hook: the bearer token is checked before the route's schema looks at the
 * request, so who asks comes first and a signed-out caller learns nothing, not even which ids are
 * well formed (401 before 400).
 */
export const signedIn =
  (ctx: { authenticate(request: FastifyRequest): Promise<JwtClaims> }) =>
  async (request: FastifyRequest): Promise<void> => {
    request.pactaClaims = await ctx.authenticate(request);
  };

/** The claims the route's `signedIn` hook verified. */
export function claimsOf(request: FastifyRequest): JwtClaims {
  if (!request.pactaClaims) throw new Error(`${request.routeOptions.url ?? 'this route'} has no signedIn hook`);
  return request.pactaClaims;
}
