import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/**
 * Routes the document leaves out: the sync protocol, the local auth and storage (Supabase's own APIs,
 * documented by Supabase) and the webhook.
 */
const NOT_IN_THE_DOCUMENT = /^\/(sync\/v1|auth\/v1|storage\/v1)\/|^\/api\/(stripe\/webhook|openapi\.json)$/;

/**
 * GET /api/openapi.json: the OpenAPI document of `/api`, generated from the same zod contracts
 * (`src/domain/contracts/`) the routes validate and serialize with, so it cannot drift from them.
 * Registered before the routes, which @fastify/swagger collects as they are added.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const transform = createJsonSchemaTransform({});
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Pacta API', description: 'The online-only endpoints under /api.', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: (document) =>
      NOT_IN_THE_DOCUMENT.test(document.url) ? { schema: { hide: true }, url: document.url } : transform(document),
    transformObject: jsonSchemaTransformObject,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
