// /tags (members of the workspace) and /admin/tags (role admin, every workspace).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity, errorResponseSchema, idParamsSchema } from '../../lib/http.ts';
import { sendList, toPage, workspaceListQuerySchema } from '../../lib/pagination.ts';
import { guardScope, type RouteScope } from '../workspaces/workspaces.access.ts';
import { createTagBodySchema, tagSchema, updateTagBodySchema } from './tags.schemas.ts';

const errors = {
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  422: errorResponseSchema,
};

export const tagsRoutes: FastifyPluginAsyncZod<{ scope: RouteScope }> = async (app, { scope }) => {
  const service = app.deps.services.tags;
  guardScope(app, scope);
  const tags = [`${scope.tag}tags`];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: scope.admin ? 'Tags of every workspace' : 'Tags of the workspaces the user is a member of',
        security: bearerSecurity,
        querystring: workspaceListQuerySchema,
        response: { 200: z.array(tagSchema), ...errors },
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
        summary: 'One tag',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: tagSchema, ...errors },
      },
    },
    async (request) => service.get(scope.actor(request), request.params.id),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a tag in a workspace; the slug is generated from the name',
        security: bearerSecurity,
        body: createTagBodySchema,
        response: { 201: tagSchema, ...errors },
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
        summary: 'Rename a tag; the slug is regenerated',
        security: bearerSecurity,
        params: idParamsSchema,
        body: updateTagBodySchema,
        response: { 200: tagSchema, ...errors },
      },
    },
    async (request) => service.rename(scope.actor(request), request.params.id, request.body.name),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Delete a tag; it is removed from every location',
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
