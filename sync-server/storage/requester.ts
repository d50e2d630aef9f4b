import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../app.ts';
import { bearerToken } from '../auth/authenticate.ts';
import type { JwtClaims } from '../db/database.ts';
import type { Requester } from './objects.ts';
import { storageErrors } from './storage-errors.ts';

/**
 * Who sends a storage request. supabase-js sends the user's access token once signed in and the
 * project's anon key before: a key that is not a JWT (the local anon key) or no token at all is
 * nobody, who may read public objects only. A JWT must be a live session's token (401 otherwise).
 */
export async function requesterOf(ctx: AppContext, request: FastifyRequest): Promise<Requester> {
  const token = bearerToken(request);
  if (!token || token.split('.').length !== 3) return null;
  return ctx.authenticate(request);
}

/** The signed-in user a write needs; nobody may write (as Storage's policies refuse the anon role). */
export async function writerOf(ctx: AppContext, request: FastifyRequest): Promise<JwtClaims> {
  const who = await requesterOf(ctx, request);
  if (!who) throw storageErrors.accessDenied('Sign in to upload or remove files');
  return who;
}
