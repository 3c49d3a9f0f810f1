// /sets (members of the workspace) and /admin/sets (role admin, every workspace).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity, errorResponseSchema, idParamsSchema } from '../../lib/http.ts';
import { sendList, toPage, workspaceListQuerySchema } from '../../lib/pagination.ts';
import { guardScope, type RouteScope } from '../workspaces/workspaces.access.ts';
import { createSetBodySchema, setSchema, updateSetBodySchema } from './sets.schemas.ts';

const errors = {
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  422: errorResponseSchema,
};

export const setsRoutes: FastifyPluginAsyncZod<{ scope: RouteScope }> = async (app, { scope }) => {
  const service = app.deps.services.sets;
  guardScope(app, scope);
  const tags = [`${scope.tag}sets`];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: scope.admin ? 'Sets of every workspace' : 'Sets of the workspaces the user is a member of',
        security: bearerSecurity,
        querystring: workspaceListQuerySchema,
        response: { 200: z.array(setSchema), ...errors },
      },
    },
    async (request, reply) =>
      sendList(
        reply,
        await service.list(scope.actor(request), request.query.workspace_id, toPage(request.query)),
      ),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        summary: 'One set',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: setSchema, ...errors },
      },
    },
    async (request) => service.get(scope.actor(request), request.params.id),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a set in a workspace',
        security: bearerSecurity,
        body: createSetBodySchema,
        response: { 201: setSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(scope.actor(request), request.body)),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Rename a set',
        security: bearerSecurity,
        params: idParamsSchema,
        body: updateSetBodySchema,
        response: { 200: setSchema, ...errors },
      },
    },
    async (request) => service.rename(scope.actor(request), request.params.id, request.body.name),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Delete a set; its locations, maps and finders remain',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.delete(scope.actor(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
