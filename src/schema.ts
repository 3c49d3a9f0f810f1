// Every table of the service, re-exported so drizzle-kit (drizzle.config.ts) sees one schema.
export * from './modules/ai-imports/ai-imports.table.ts';
export * from './modules/analytics/analytics.table.ts';
export * from './modules/audit/audit.table.ts';
export * from './modules/auth/sessions/sessions.table.ts';
export * from './modules/auth/two-factor/two-factor.table.ts';
export * from './modules/billing/billing.table.ts';
export * from './modules/custom-fields/custom-fields.table.ts';
export * from './modules/finders/finders.table.ts';
export * from './modules/invites/invites.table.ts';
export * from './modules/locations/locations.relations.table.ts';
export * from './modules/locations/locations.table.ts';
export * from './modules/maps/maps.table.ts';
export * from './modules/processes/processes.table.ts';
export * from './modules/sets/sets.table.ts';
export * from './modules/tags/tags.table.ts';
export * from './modules/users/users.table.ts';
export * from './modules/workspaces/workspaces.table.ts';
