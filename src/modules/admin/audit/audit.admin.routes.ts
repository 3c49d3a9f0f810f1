// GET /admin/audit-logs: what the `audit` check recorded, for admins (docs/api.md, Audit and
// "Admin: users and audit logs").

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendList } from '../../../lib/http.ts';
import { bearerSecurity } from '../../../lib/schemas.ts';

import { requireRole } from '../../auth/auth.guards.ts';
import { auditLogSchema, auditLogsQuerySchema } from './audit.admin.schemas.ts';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.deps.services.adminAudit;
  app.addHook('onRequest', app.authenticate);
  // The role check runs before validation: a non-admin gets 403, never a 422 about the query.
  app.addHook('preValidation', requireRole('admin'));

  app.get(
    '/',
    {
      schema: {
        tags: ['admin audit logs'],
        summary:
          'Audit rows, newest first; filters user_id, from (inclusive), to (exclusive), method, status; ' +
          'limit 1-1000 (default 100), offset; X-Total-Count always sent',
        security: bearerSecurity,
        querystring: auditLogsQuerySchema,
        response: {
          200: z.array(auditLogSchema),
        },
      },
    },
    async (request, reply) => sendList(reply, await service.list(request.query)),
  );
};
