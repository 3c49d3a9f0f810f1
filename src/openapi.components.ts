// The named schemas of the OpenAPI document (`#/components/schemas/<name>`): the types a
// generated client names after them. Each is registered under its name in zod's global registry,
// which fastify-type-provider-zod's transforms turn into components and `$ref`s (openapi.ts).
// A schema reads differently as a request body (its input: what a client sends, before
// transforms and defaults) and as a response (its output), so the library emits two components
// per name: `<name>` for responses and `<name>Input` for bodies. Responses are named for what
// they are (`Location`), bodies for the operation they are the input of (`CreateLocation` ->
// `CreateLocationInput`); the side a schema is not used on is left out of the document.
// Kept in one list rather than beside each schema, so that the names a client sees read together.
import { z } from 'zod';
import {
  specialHoursOutputSchema,
  specialHoursSchema,
  weeklyHoursOutputSchema,
  weeklyHoursSchema,
} from './lib/hours/hours.schemas.ts';
import { errorResponseSchema } from './lib/schemas.ts';
import { updateMeBodySchema } from './modules/account/account.schemas.ts';
import { auditLogSchema } from './modules/admin/audit/audit.admin.schemas.ts';
import { adminUserPayloadSchema, updateUserBodySchema } from './modules/admin/users/users.admin.schemas.ts';
import {
  aiLogSchema,
  batchSchema,
  batchWithItemsSchema,
  createBatchBodySchema,
  createBatchResponseSchema,
  importBatchResponseSchema,
  itemSchema,
  patchItemBodySchema,
} from './modules/ai-imports/ai-imports.schemas.ts';
import { analyticsBodySchema, analyticsReportSchema } from './modules/analytics/analytics.schemas.ts';
import {
  loginBodySchema,
  registerBodySchema,
  tokenResponseSchema,
  twoFactorChallengeResponseSchema,
} from './modules/auth/auth.schemas.ts';
import { sessionSchema } from './modules/auth/sessions/sessions.schemas.ts';
import { invoiceSchema } from './modules/billing/billing.schemas.ts';
import {
  createCustomFieldBodySchema,
  customFieldSchema,
  updateCustomFieldBodySchema,
} from './modules/custom-fields/custom-fields.schemas.ts';
import {
  createFinderBodySchema,
  finderRuleOutputSchema,
  finderRuleSchema,
  finderSchema,
  integrationSchema,
  updateFinderBodySchema,
} from './modules/finders/finders.schemas.ts';
import {
  finderWidgetPayloadSchema,
  payloadLocationSchema,
  publicationInfoSchema,
  publishResultSchema,
} from './modules/finders/payload/finders.payload.schemas.ts';
import {
  createHolidayCalendarBodySchema,
  holidayCalendarSchema,
  updateHolidayCalendarBodySchema,
} from './modules/holiday-calendars/holiday-calendars.schemas.ts';
import { invitePreviewSchema, inviteSchema } from './modules/invites/invites.schemas.ts';
import {
  bulkLocationsBodySchema,
  bulkLocationsResultSchema,
} from './modules/locations/bulk/locations.bulk.schemas.ts';
import {
  createLocationBodySchema,
  importResultSchema,
  locationSchema,
  updateLocationBodySchema,
} from './modules/locations/locations.schemas.ts';
import { createMapBodySchema, mapSchema, updateMapBodySchema } from './modules/maps/maps.schemas.ts';
import {
  autocompleteResponseSchema,
  placeResponseSchema,
} from './modules/place-search/place-search.schemas.ts';
import {
  processEventSchema,
  processSchema,
  processSummarySchema,
} from './modules/processes/processes.schemas.ts';
import { setSchema } from './modules/sets/sets.schemas.ts';
import { tagSchema } from './modules/tags/tags.schemas.ts';
import { userPayloadSchema } from './modules/users/users.schemas.ts';
import { workspaceDetailSchema, workspaceSchema } from './modules/workspaces/workspaces.schemas.ts';

/** Name -> schema. A name ending in `Input` would collide with the body form of another. */
export const namedSchemas: Record<string, z.ZodType> = {
  // Every error answer (docs/api.md, Errors).
  Error: errorResponseSchema,
  // Accounts
  User: userPayloadSchema,
  AdminUser: adminUserPayloadSchema,
  AuthToken: tokenResponseSchema,
  TwoFactorChallenge: twoFactorChallengeResponseSchema,
  Session: sessionSchema,
  Invite: inviteSchema,
  InvitePreview: invitePreviewSchema,
  AuditLog: auditLogSchema,
  Invoice: invoiceSchema,
  Register: registerBodySchema,
  Login: loginBodySchema,
  UpdateMe: updateMeBodySchema,
  UpdateUser: updateUserBodySchema,
  // Workspace content
  Workspace: workspaceSchema,
  WorkspaceDetail: workspaceDetailSchema,
  Set: setSchema,
  Tag: tagSchema,
  CustomFieldDefinition: customFieldSchema,
  CreateCustomFieldDefinition: createCustomFieldBodySchema,
  UpdateCustomFieldDefinition: updateCustomFieldBodySchema,
  Map: mapSchema,
  CreateMap: createMapBodySchema,
  UpdateMap: updateMapBodySchema,
  Location: locationSchema,
  CreateLocation: createLocationBodySchema,
  UpdateLocation: updateLocationBodySchema,
  LocationImportResult: importResultSchema,
  // Opening hours (docs/api.md, Opening hours): as answered, and as sent.
  WeeklyHours: weeklyHoursOutputSchema,
  SpecialHours: specialHoursOutputSchema,
  SetWeeklyHours: weeklyHoursSchema,
  SetSpecialHours: specialHoursSchema,
  HolidayCalendar: holidayCalendarSchema,
  CreateHolidayCalendar: createHolidayCalendarBodySchema,
  UpdateHolidayCalendar: updateHolidayCalendarBodySchema,
  BulkLocations: bulkLocationsBodySchema,
  BulkLocationsResult: bulkLocationsResultSchema,
  // Finders, their widget payload and its publishing
  Finder: finderSchema,
  CreateFinder: createFinderBodySchema,
  UpdateFinder: updateFinderBodySchema,
  // A finder's rule (docs/api.md, Finders): as answered, and as sent.
  FinderRule: finderRuleOutputSchema,
  SetFinderRule: finderRuleSchema,
  FinderIntegration: integrationSchema,
  FinderPayload: finderWidgetPayloadSchema,
  FinderPayloadLocation: payloadLocationSchema,
  PublishResult: publishResultSchema,
  PublicationInfo: publicationInfoSchema,
  AnalyticsEvents: analyticsBodySchema,
  AnalyticsReport: analyticsReportSchema,
  PlaceSuggestions: autocompleteResponseSchema,
  Place: placeResponseSchema,
  // Background work
  Process: processSchema,
  ProcessSummary: processSummarySchema,
  ProcessEvent: processEventSchema,
  AiImportBatch: batchSchema,
  AiImportBatchWithItems: batchWithItemsSchema,
  AiImportItem: itemSchema,
  AiImportBatchCreated: createBatchResponseSchema,
  AiImportBatchImportStarted: importBatchResponseSchema,
  AiLog: aiLogSchema,
  CreateAiImportBatch: createBatchBodySchema,
  UpdateAiImportItem: patchItemBodySchema,
};

/** Gives each schema of namedSchemas its name (again: registering twice changes nothing). */
export function registerNamedSchemas(): void {
  for (const [id, schema] of Object.entries(namedSchemas)) {
    z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
  }
}
