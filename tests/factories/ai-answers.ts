// The `openai` model's answers as the fake OpenAI server sends them back.
import { EMPTY_LOCATION_PAYLOAD } from '../../src/modules/ai-imports/ai-imports.normalize.ts';

/**
 * A location in the wire shape of the model's strict schema: every field present (null when the
 * notes do not give it), custom_fields as `[{name, value}]` pairs (the empty payload's other fields are the same on the
 * wire: hours is null or an object of days, each null or a list). `fields` overrides any of them,
 * including with a shape the schema refuses, for the tests of what the service does with it.
 */
export const wireLocation = (fields: Record<string, unknown>) => ({
  ...EMPTY_LOCATION_PAYLOAD,
  custom_fields: [],
  ...fields,
});
