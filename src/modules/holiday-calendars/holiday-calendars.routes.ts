// /holiday-calendars: members of the calendar's workspace (docs/api.md, Holiday calendars).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendList } from '../../lib/http.ts';
import { registerItemRoutes } from '../../lib/item-routes.ts';
import { toPage } from '../../lib/pagination.ts';
import { bearerSecurity } from '../../lib/schemas.ts';
import { memberActor } from '../auth/auth.scope.ts';
import {
  createHolidayCalendarBodySchema,
  holidayCalendarSchema,
  listHolidayCalendarsQuerySchema,
  updateHolidayCalendarBodySchema,
} from './holiday-calendars.schemas.ts';

export const holidayCalendarsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.deps.services.holidayCalendars;
  app.addHook('onRequest', app.authenticate);
  const tags = ['holiday-calendars'];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'Holiday calendars of the workspaces the user is a member of, by name',
        security: bearerSecurity,
        querystring: listHolidayCalendarsQuerySchema,
        response: { 200: z.array(holidayCalendarSchema) },
      },
    },
    async (request, reply) =>
      sendList(
        reply,
        await service.list(memberActor(request), request.query.workspace_id, toPage(request.query)),
      ),
  );

  registerItemRoutes(app, {
    tags,
    caller: memberActor,
    schema: holidayCalendarSchema,
    bodies: { create: createHolidayCalendarBodySchema, update: updateHolidayCalendarBodySchema },
    summaries: {
      get: 'One holiday calendar',
      create: 'Create a holiday calendar, optionally assigned to locations and sets',
      update: 'Update a holiday calendar; a present list of location or set ids replaces the assignments',
      delete: 'Delete a holiday calendar; its locations and sets remain',
    },
    get: (caller, id) => service.get(caller, id),
    create: (caller, body) => service.create(caller, body),
    update: (caller, id, body) => service.update(caller, id, body),
    delete: (caller, id) => service.delete(caller, id),
  });
};
