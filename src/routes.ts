// Every route plugin of the API, mounted under /api by buildApp. Workspace content is mounted
// twice: for members, and under /admin for admins acting across every workspace.
import type { FastifyPluginAsync } from 'fastify';
import { accountRoutes } from './modules/account/account.routes.ts';
import { auditRoutes } from './modules/admin/audit/audit.admin.routes.ts';
import { adminUsersRoutes } from './modules/admin/users/users.admin.routes.ts';
import { aiImportsRoutes, aiLogsRoutes } from './modules/ai-imports/ai-imports.routes.ts';
import { analyticsIngestRoutes, analyticsReportRoutes } from './modules/analytics/analytics.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { adminScope, memberScope } from './modules/auth/auth.scope.ts';
import { sessionsRoutes } from './modules/auth/sessions.routes.ts';
import { twoFactorRoutes } from './modules/auth/two-factor.routes.ts';
import { billingRoutes } from './modules/billing/billing.routes.ts';
import { customFieldsRoutes } from './modules/custom-fields/custom-fields.routes.ts';
import { findersRoutes } from './modules/finders/finders.routes.ts';
import {
  finderDetailsRoutes,
  finderPublishRoutes,
} from './modules/finders/payload/finders.payload.routes.ts';
import { geocodingRoutes } from './modules/geocoding/geocoding.routes.ts';
import { holidayCalendarsRoutes } from './modules/holiday-calendars/holiday-calendars.routes.ts';
import { invitesRoutes } from './modules/invites/invites.routes.ts';
import { locationBulkRoutes } from './modules/locations/bulk/locations.bulk.routes.ts';
import { locationImageRoutes } from './modules/locations/image/locations.image.routes.ts';
import { locationImportRoutes } from './modules/locations/import/locations.import.routes.ts';
import { locationsRoutes } from './modules/locations/locations.routes.ts';
import { mapsRoutes } from './modules/maps/maps.routes.ts';
import { placeSearchRoutes } from './modules/place-search/place-search.routes.ts';
import { processesRoutes } from './modules/processes/processes.routes.ts';
import { setsRoutes } from './modules/sets/sets.routes.ts';
import { tagsRoutes } from './modules/tags/tags.routes.ts';
import { workspacesRoutes } from './modules/workspaces/workspaces.routes.ts';

export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes);
  await app.register(invitesRoutes);
  await app.register(accountRoutes);
  await app.register(adminUsersRoutes);
  await app.register(auditRoutes, { prefix: '/admin/audit-logs' });
  await app.register(sessionsRoutes);
  await app.register(twoFactorRoutes);

  await app.register(workspacesRoutes, { prefix: '/workspaces', scope: memberScope });
  await app.register(workspacesRoutes, { prefix: '/admin/workspaces', scope: adminScope });
  await app.register(geocodingRoutes, { prefix: '/workspaces', scope: memberScope });
  await app.register(setsRoutes, { prefix: '/sets', scope: memberScope });
  await app.register(setsRoutes, { prefix: '/admin/sets', scope: adminScope });
  await app.register(tagsRoutes, { prefix: '/tags', scope: memberScope });
  await app.register(tagsRoutes, { prefix: '/admin/tags', scope: adminScope });
  await app.register(customFieldsRoutes, { prefix: '/custom-field-definitions', scope: memberScope });
  await app.register(customFieldsRoutes, { prefix: '/admin/custom-field-definitions', scope: adminScope });

  await app.register(holidayCalendarsRoutes, { prefix: '/holiday-calendars' });
  await app.register(mapsRoutes, { prefix: '/maps' });
  await app.register(billingRoutes);
  await app.register(processesRoutes, { prefix: '/processes' });
  await app.register(aiImportsRoutes, { prefix: '/ai-location-imports' });
  await app.register(aiLogsRoutes, { prefix: '/admin/ai-logs' });

  for (const [prefix, scope] of [
    ['', memberScope],
    ['/admin', adminScope],
  ] as const) {
    await app.register(locationsRoutes, { prefix: `${prefix}/locations`, scope });
    await app.register(locationImportRoutes, { prefix: `${prefix}/locations`, scope });
    await app.register(locationBulkRoutes, { prefix: `${prefix}/locations`, scope });
    await app.register(locationImageRoutes, { prefix: `${prefix}/locations`, scope });
    await app.register(findersRoutes, { prefix: `${prefix}/finders`, scope });
    await app.register(analyticsReportRoutes, { prefix: `${prefix}/finders`, scope });
  }

  // The widget's public routes: by finder token, under the finder's authorized_urls.
  await app.register(placeSearchRoutes, { prefix: '/mapping' });
  await app.register(analyticsIngestRoutes, { prefix: '/analytics' });
  await app.register(finderDetailsRoutes, { prefix: '/ext/finders/details' });
  await app.register(finderPublishRoutes, { prefix: '/ext/finders/details' });
};
