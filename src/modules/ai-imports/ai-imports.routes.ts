// /ai-location-imports (docs/api.md, "AI import: routes and lifecycle"): the caller's own batches.
// Starting one needs the workspace's owner; every batch route answers 404 for anyone else's batch.
// And /admin/ai-logs: batches with their model usage, for admins.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendList } from '../../lib/http.ts';
import { bearerSecurity, idParamsSchema } from '../../lib/schemas.ts';
import { requireRole } from '../auth/auth.guards.ts';
import { memberActor } from '../auth/auth.scope.ts';
import {
  aiLogSchema,
  aiLogsQuerySchema,
  batchSchema,
  batchWithItemsSchema,
  createBatchBodySchema,
  createBatchResponseSchema,
  importBatchResponseSchema,
  itemParamsSchema,
  listBatchesQuerySchema,
  patchItemBodySchema,
} from './ai-imports.schemas.ts';

export const aiImportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { aiImports, aiImportApply } = app.deps.services;
  app.addHook('onRequest', app.authenticate);
  const tags = ['ai location imports'];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'The caller’s batches (at most 20, last updated first, discarded ones left out)',
        security: bearerSecurity,
        querystring: listBatchesQuerySchema,
        response: { 200: z.array(batchSchema) },
      },
    },
    async (request) => aiImports.list(memberActor(request), request.query.workspace_id),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Start an AI import: a draft batch and its generate process (owner of the workspace only)',
        description:
          'Answers 200 with the queued process to watch (GET /processes/{id}/stream); the worker drafts the items.',
        security: bearerSecurity,
        body: createBatchBodySchema,
        response: { 200: createBatchResponseSchema },
      },
    },
    async (request) => aiImports.create(memberActor(request), request.body),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        summary: 'One batch with its items',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: batchWithItemsSchema },
      },
    },
    async (request) => aiImports.get(memberActor(request), request.params.id),
  );

  app.patch(
    '/:id/items/:itemId',
    {
      schema: {
        tags,
        summary:
          'Review an item: status and/or payload edits merged over it; answers the batch with all items',
        description: '422 when approving an item that has validation errors; 409 once the batch is imported.',
        security: bearerSecurity,
        params: itemParamsSchema,
        body: patchItemBodySchema,
        response: { 200: batchWithItemsSchema },
      },
    },
    async (request) =>
      aiImports.patchItem(memberActor(request), request.params.id, request.params.itemId, request.body),
  );

  app.post(
    '/:id/import',
    {
      schema: {
        tags,
        summary:
          'Apply the batch: approve, geocode, write locations, join the finder’s map (inside the request)',
        description:
          '422 when no item is valid; 409 when the batch is not a draft. Answers the completed apply process.',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: importBatchResponseSchema },
      },
    },
    async (request) => aiImportApply.importBatch(memberActor(request), request.params.id),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Discard a batch (soft): it leaves every list and lookup; a pending generate is cancelled',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await aiImports.discard(memberActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

export const aiLogsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { aiImports } = app.deps.services;
  app.addHook('onRequest', app.authenticate);
  // The role check runs before validation: a non-admin gets 403, never a 422 about the query.
  app.addHook('preValidation', requireRole('admin'));

  app.get(
    '/',
    {
      schema: {
        tags: ['admin ai logs'],
        summary:
          'AI import batches with their model usage, newest first (discarded included); filters user_id, ' +
          'workspace_id; limit 1-1000 (default 50), offset; X-Total-Count always sent',
        security: bearerSecurity,
        querystring: aiLogsQuerySchema,
        response: { 200: z.array(aiLogSchema) },
      },
    },
    async (request, reply) => sendList(reply, await aiImports.logs(request.query)),
  );
};
