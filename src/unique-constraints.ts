// What a unique violation means to a client, by constraint name: the one table the error handler
// (src/plugins/error-handler.ts, given it by app.ts) reads to answer PostgreSQL's 23505. Services check first where they can
// give a clear answer early, but the unique index is what decides between racing writes, and
// its violation arrives here wherever it happens, so no service catches its own.
//
// Every unique index of the schema is listed (tests/database-errors.test.ts compares this table
// with the database): a new index needs a decision. `null` marks values the service makes itself
// (random tokens, ids, provider event ids) or that no request names: a violation there is a
// 409 `conflict`, logged, never a 500.
import { createCustomFieldNameTakenError } from './modules/custom-fields/custom-fields.errors.ts';
import { createHolidayCalendarNameTakenError } from './modules/holiday-calendars/holiday-calendars.errors.ts';
import { createExternalIdTakenError } from './modules/locations/locations.errors.ts';
import { createTagNameTakenError } from './modules/tags/tags.errors.ts';
import { createEmailTakenError } from './modules/users/users.errors.ts';
import type { UniqueConstraintErrors } from './plugins/error-handler.ts';

export const uniqueConstraintErrors: UniqueConstraintErrors = {
  // 422 naming the request field the index guards.
  users_email_active_unique: createEmailTakenError,
  locations_workspace_external_id_unique: createExternalIdTakenError,
  tags_workspace_id_slug_unique: createTagNameTakenError,
  custom_field_definitions_workspace_id_name_unique: createCustomFieldNameTakenError,
  holiday_calendars_workspace_name_unique: createHolidayCalendarNameTakenError,
  // Made by the service, never typed by a client.
  sessions_jti_unique: null,
  login_challenges_token_hash_unique: null,
  invites_token_hash_unique: null,
  finders_token_unique: null,
  webhook_events_provider_event_id_unique: null,
  // PUT /finders/{finder}/integrations/{provider} upserts on this index, so it is never violated.
  finder_integrations_finder_id_provider_unique: null,
  // Analytics views are inserted with `on conflict do nothing` on this index (a view counts once
  // per session and finder), so it is never violated.
  analytics_events_view_session_idx: null,
};
