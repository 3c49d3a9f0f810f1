// Query and response shapes of GET /mapping/autocomplete and GET /mapping/places.
import { z } from 'zod';
import { isCountryCode } from '../../lib/countries.ts';
import { PHOTON_PLACE_ID_MAX_LENGTH } from './providers/photon.provider.ts';
import { PLACE_PROVIDER_SLUGS, placeIdProblem } from './providers/place-providers.types.ts';

/** An empty query value is a missing one, not 0 (Number('') would be). */
const blankAsMissing = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const coordinate = (field: string, bound: number) =>
  z
    .preprocess(
      blankAsMissing,
      z.coerce
        .number({ error: `The ${field} must be a number.` })
        .min(-bound, `The ${field} must be between -${bound} and ${bound}.`)
        .max(bound, `The ${field} must be between -${bound} and ${bound}.`),
    )
    .optional();

/** The finder's public token. Tokens are 43 characters; the bound only keeps junk out. */
const finderKeySchema = z
  .string({ error: 'The finder_key field is required.' })
  .trim()
  .min(1, 'The finder_key field is required.')
  .max(200, 'The finder_key may not be greater than 200 characters.');

const languageSchema = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,3}$/,
    'The language must be a BCP 47 tag such as "en" or "de-DE".',
  )
  .optional();

/** Google and Mapbox group the keystrokes of one search under it (billing sessions). */
const sessionTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9._~-]{1,128}$/, 'The session_token must be 1-128 URL-safe characters.')
  .optional();

export const autocompleteQuerySchema = z
  .object({
    q: z
      .string({ error: 'The q field is required.' })
      .trim()
      .min(1, 'The q field is required.')
      .max(200, 'The q may not be greater than 200 characters.'),
    finder_key: finderKeySchema,
    lat: coordinate('lat', 90),
    lng: coordinate('lng', 180),
    country: z
      .string()
      .trim()
      .refine(isCountryCode, 'The country must be an ISO 3166-1 alpha-2 code.')
      .transform((value) => value.toUpperCase())
      .optional(),
    language: languageSchema,
    session_token: sessionTokenSchema,
  })
  .superRefine((query, context) => {
    // A bias needs both; one alone is a client bug better reported than ignored.
    if ((query.lat === undefined) !== (query.lng === undefined)) {
      const missing = query.lat === undefined ? 'lat' : 'lng';
      context.addIssue({
        code: 'custom',
        path: [missing],
        message: `The ${missing} is required when ${missing === 'lat' ? 'lng' : 'lat'} is given.`,
      });
    }
  });

const placeQueryFields = z.object({
  place_id: z
    .string({ error: 'The place_id field is required.' })
    .trim()
    .min(1, 'The place_id field is required.')
    .max(
      PHOTON_PLACE_ID_MAX_LENGTH,
      `The place_id may not be greater than ${PHOTON_PLACE_ID_MAX_LENGTH} characters.`,
    ),
  provider: z.enum(PLACE_PROVIDER_SLUGS, {
    error: `The provider must be one of: ${PLACE_PROVIDER_SLUGS.join(', ')}.`,
  }),
  finder_key: finderKeySchema,
  language: languageSchema,
  session_token: sessionTokenSchema,
});

export const placeQuerySchema = placeQueryFields.superRefine((query, context) => {
  // Per provider (providers/place-providers.types.ts): an id that could leave the provider's path is refused
  // before any call spends the finder's key.
  const problem = placeIdProblem(query.provider, query.place_id);
  if (problem) context.addIssue({ code: 'custom', path: ['place_id'], message: problem });
});

export const autocompleteResponseSchema = z.object({
  suggestions: z.array(z.object({ place_id: z.string(), description: z.string() })),
  /** The provider that answered: pass it to GET /mapping/places with a suggestion's place_id. */
  provider: z.enum(PLACE_PROVIDER_SLUGS),
});

export const placeResponseSchema = z.object({
  lat: z.number(),
  lng: z.number(),
  address: z.string(),
  name: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  zip: z.string().optional(),
  country: z.string().optional(),
  country_code: z.string().optional(),
});
