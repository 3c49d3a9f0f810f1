// /processes: the caller's own processes (docs/api.md, Processes and the event stream). A process
// belongs to the user who started it, in a workspace they are still a member of; anyone else's
// answers 404 on every route.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendList } from '../../lib/http.ts';
import { toPage } from '../../lib/pagination.ts';
import { bearerSecurity, idParamsSchema, textStreamSchema } from '../../lib/schemas.ts';
import { requireAuth } from '../auth/auth.plugin.ts';
import {
  listProcessesQuerySchema,
  processEventSchema,
  processEventsQuerySchema,
  processSchema,
  processSummarySchema,
} from './processes.schemas.ts';

const streamQuerySchema = z.object({
  /** For clients that cannot send the Last-Event-ID header. */
  last_event_id: z.string().optional(),
});

/** Last-Event-ID as sent by EventSource: an event id; anything else resumes from the start. */
function lastEventIdOf(header: string | string[] | undefined, query: string | undefined): number {
  const raw = (Array.isArray(header) ? header[0] : header) ?? query;
  if (raw === undefined || !/^\d{1,15}$/.test(raw.trim())) return 0;
  return Number(raw.trim());
}

export const processesRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.deps.services.processes;
  app.addHook('onRequest', app.authenticate);
  // Open streams would hold a graceful shutdown for up to 25 s: end them first (clients reconnect).
  app.addHook('preClose', async () => service.closeStreams());
  const tags = ['processes'];
  const userId = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'The caller’s processes, most recent first; filters workspace_id and status',
        security: bearerSecurity,
        querystring: listProcessesQuerySchema,
        response: { 200: z.array(processSummarySchema) },
      },
    },
    async (request, reply) =>
      sendList(
        reply,
        await service.list(
          userId(request),
          { workspaceId: request.query.workspace_id, status: request.query.status },
          toPage(request.query),
        ),
      ),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        summary: 'One process with its metadata and result summary',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: processSchema },
      },
    },
    async (request) => service.get(userId(request), request.params.id),
  );

  app.get(
    '/:id/events',
    {
      schema: {
        tags,
        summary: 'The process’s events in id order (after_id: only later ones; at most 1,000)',
        security: bearerSecurity,
        params: idParamsSchema,
        querystring: processEventsQuerySchema,
        response: { 200: z.array(processEventSchema) },
      },
    },
    async (request) => service.events(userId(request), request.params.id, request.query.after_id),
  );

  app.get(
    '/:id/stream',
    {
      schema: {
        tags,
        summary: 'Server-sent events of the process: state, then each event; `done` at a terminal status',
        description:
          'text/event-stream. First a `data:` line with the current state (type "state", no id), then one ' +
          '`id:` + `data:` pair per event (the shape of GET /processes/{id}/events), resuming after ' +
          'Last-Event-ID (header, or the last_event_id query parameter). `: ping` every 10 s; ' +
          '`event: done` when the process reaches completed, failed or cancelled; closed after 25 s.',
        security: bearerSecurity,
        params: idParamsSchema,
        querystring: streamQuerySchema,
        response: {
          200: {
            description: 'The event stream (stays open until `done` or 25 s)',
            content: { 'text/event-stream': { schema: textStreamSchema } },
          },
        },
      },
    },
    async (request, reply) => {
      const stream = await service.openStream(
        userId(request),
        request.params.id,
        lastEventIdOf(request.headers['last-event-id'], request.query.last_event_id),
      );
      reply.raw.on('close', stream.close);
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        .send(stream.stream);
    },
  );

  app.post(
    '/:id/retry',
    {
      schema: {
        tags,
        summary: 'Retry a failed process: back to pending, its job queued again (409 unless failed)',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: processSchema },
      },
    },
    async (request) => service.retry(userId(request), request.params.id),
  );

  app.post(
    '/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a pending or running process (409 otherwise); a running job stops within a second',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: processSchema },
      },
    },
    async (request) => service.cancel(userId(request), request.params.id),
  );
};
