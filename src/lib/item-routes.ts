// The four routes of one item of a resource that every CRUD module mounts the same way:
// GET /:id, POST / (201), PUT /:id, DELETE /:id (204). Each module supplies its schemas, wording
// and service calls; lists and routes of its own stay in its routes file, around these.
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity, idParamsSchema } from './schemas.ts';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

export interface ItemRoutes<
  Caller,
  Item extends z.ZodType,
  Create extends z.ZodType,
  Update extends z.ZodType,
> {
  tags: string[];
  /** Who asks, as the service calls want it (a scope's actor, the member's actor). */
  caller: (request: FastifyRequest) => Caller;
  /** The output of one item; what the calls below answer is checked against it. */
  schema: Item;
  bodies: { create: Create; update: Update };
  summaries: { get: string; create: string; update: string; delete: string };
  /** Route config of the two routes with a body (e.g. a module's own validation status). */
  bodyConfig?: FastifyContextConfig;
  get(caller: Caller, id: number): Promise<z.output<Item>>;
  create(caller: Caller, body: z.output<Create>): Promise<z.output<Item>>;
  update(caller: Caller, id: number, body: z.output<Update>): Promise<z.output<Item>>;
  delete(caller: Caller, id: number): Promise<void>;
}

export function registerItemRoutes<
  Caller,
  Item extends z.ZodType,
  Create extends z.ZodType,
  Update extends z.ZodType,
>(app: ZodApp, item: ItemRoutes<Caller, Item, Create, Update>): void {
  const { tags, summaries } = item;
  // Inside this generic function TypeScript cannot resolve the type provider's conditional types
  // for Item, Create and Update: the routes see the schema as any zod type and the bodies are
  // narrowed back below. Each module's calls are checked against its own schemas by
  // ItemRoutes, where the types are concrete.
  const schema: z.ZodType = item.schema;
  app.get(
    '/:id',
    {
      schema: {
        tags,
        summary: summaries.get,
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: schema },
      },
    },
    async (request) => item.get(item.caller(request), request.params.id),
  );

  app.post(
    '/',
    {
      config: item.bodyConfig,
      schema: {
        tags,
        summary: summaries.create,
        security: bearerSecurity,
        body: item.bodies.create,
        response: { 201: schema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await item.create(item.caller(request), request.body as z.output<Create>)),
  );

  app.put(
    '/:id',
    {
      config: item.bodyConfig,
      schema: {
        tags,
        summary: summaries.update,
        security: bearerSecurity,
        params: idParamsSchema,
        body: item.bodies.update,
        response: { 200: schema },
      },
    },
    async (request) => item.update(item.caller(request), request.params.id, request.body as z.output<Update>),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: summaries.delete,
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await item.delete(item.caller(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
