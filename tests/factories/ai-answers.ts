// The `openai` model's answers as the fake OpenAI server sends them back.

/**
 * A location in the wire shape of the model's strict schema: every field present (null when the
 * notes do not give it), custom_fields as `[{name, value}]` pairs. `fields` overrides any of them,
 * including with a shape the schema refuses, for the tests of what the service does with it.
 */
export const wireLocation = (fields: Record<string, unknown>) => ({
  name: null,
  address: null,
  city: null,
  state: null,
  zip: null,
  country: null,
  phone: null,
  website: null,
  lat: null,
  lng: null,
  tags: [],
  custom_fields: [],
  ...fields,
});
