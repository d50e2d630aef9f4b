import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { ErrorCode } from '../../src/domain/contracts/errors.ts';
import { HttpError } from './errors.ts';

/** The codes a request its route's schema refused may answer with (all of them 400). */
type InvalidCode =
  'validation_failed' | 'invalid_request' | 'invalid_deal_id' | 'invalid_period' | 'invalid_query' | 'invalid_search';

/**
 * What a route answers when its schema refuses the request: its code, and the sentence for each part
 * of the request, fixed or built around the problems found (without one, the sentence names each
 * problem).
 */
export type InvalidRequest = { code: InvalidCode & ErrorCode; what?: string } & Partial<
  Record<'body' | 'params' | 'querystring', string | ((problems: string) => string)>
>;

declare module 'fastify' {
  interface FastifyContextConfig {
    invalid?: InvalidRequest;
  }
}

/**
 * Routes declare their request and response with the zod schemas of `src/domain/contracts/`: Fastify
 * validates requests with them (the handler gets the parsed value) and serializes every answer
 * through them, so a handler whose answer lacks a field of the contract fails with a 500 instead of
 * sending the client a shape it does not expect (and, before that, fails the typecheck).
 */
export function useContracts(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
}

/** The refusal for a request its route's schema did not accept, as the route words it. */
export function contractRefusal(err: unknown, request: FastifyRequest): HttpError | undefined {
  if (!hasZodFastifySchemaValidationErrors(err)) return undefined;
  const invalid = request.routeOptions.config.invalid ?? { code: 'validation_failed' };
  const part = (err as { validationContext?: string }).validationContext as 'body' | 'params' | 'querystring';
  const problems = err.validation
    .map((issue) => `${issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || part}: ${issue.message}`)
    .join('; ');
  const sentence = invalid[part] ?? ((found: string) => `Invalid ${invalid.what ?? 'request'} (${found})`);
  return new HttpError(400, invalid.code, typeof sentence === 'string' ? sentence : sentence(problems));
}

export { isResponseSerializationError };
