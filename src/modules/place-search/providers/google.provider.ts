// Google Places API (New): Autocomplete (New) for suggestions and Place Details (New) for the
// chosen place. The key travels in the X-Goog-Api-Key header, never in the URL.
//   POST {base}/v1/places:autocomplete  {input, locationBias.circle, includedRegionCodes,
//        languageCode, sessionToken} -> suggestions[].placePrediction.{placeId, text.text}
//   GET  {base}/v1/places/{placeId}?languageCode=&sessionToken=  with X-Goog-FieldMask
//        -> {formattedAddress, location.{latitude, longitude}, displayName.text, addressComponents}
// Errors are HTTP statuses with {error: {code, message, status}}; 404 means an unknown place.
import { z } from 'zod';
import { requestJson } from '../../../lib/upstream.ts';
import { parseUpstreamBody, upstreamUrl, urlPath } from '../../../lib/upstream-helpers.ts';
import { notFoundOn404, PlaceNotFoundError, requireApiKey } from './place-providers.errors.ts';
import {
  biasPoint,
  DEFAULT_SUGGESTION_LIMIT,
  type PlaceProvider,
  type PlaceProviderOptions,
  presentOrUndefined,
} from './place-providers.types.ts';

/** The widest circle the API accepts (50 km): a bias towards the visitor's area, not a fence. */
const BIAS_RADIUS_METERS = 50_000;

/** Only what is read below: Place Details is billed by the fields asked for. */
const DETAILS_FIELD_MASK = 'id,displayName,formattedAddress,location,addressComponents';

const autocompleteSchema = z.object({
  suggestions: z
    .array(
      z.object({
        // Query predictions (only with includeQueryPredictions) have no placePrediction.
        placePrediction: z.object({ placeId: z.string(), text: z.object({ text: z.string() }) }).optional(),
      }),
    )
    .default([]),
});

const detailsSchema = z.object({
  formattedAddress: z.string().optional(),
  location: z.object({ latitude: z.number(), longitude: z.number() }).optional(),
  displayName: z.object({ text: z.string() }).optional(),
  addressComponents: z
    .array(z.object({ longText: z.string(), shortText: z.string().optional(), types: z.array(z.string()) }))
    .default([]),
});

export function createGooglePlaceProvider({ baseUrl, timeoutMs }: PlaceProviderOptions): PlaceProvider {
  const service = 'google';
  return {
    slug: 'google',

    async autocomplete(input, { apiKey, signal }) {
      const key = requireApiKey('google', apiKey);
      const point = biasPoint(input);
      const { body } = await requestJson(upstreamUrl(baseUrl, '/v1/places:autocomplete'), {
        service,
        method: 'POST',
        headers: { 'x-goog-api-key': key },
        body: {
          input: input.q,
          ...(point && {
            locationBias: {
              circle: { center: { latitude: point.lat, longitude: point.lng }, radius: BIAS_RADIUS_METERS },
            },
          }),
          ...(input.country && { includedRegionCodes: [input.country.toLowerCase()] }),
          ...(input.language && { languageCode: input.language }),
          ...(input.sessionToken && { sessionToken: input.sessionToken }),
        },
        timeoutMs,
        signal,
      });
      const { suggestions } = parseUpstreamBody(service, autocompleteSchema, body);
      // The API has no limit parameter (it answers at most five).
      return suggestions
        .flatMap(({ placePrediction }) =>
          placePrediction
            ? [{ place_id: placePrediction.placeId, description: placePrediction.text.text }]
            : [],
        )
        .slice(0, input.limit ?? DEFAULT_SUGGESTION_LIMIT);
    },

    async place(input, { apiKey, signal }) {
      const key = requireApiKey('google', apiKey);
      const url = upstreamUrl(baseUrl, urlPath`/v1/places/${input.placeId}`, {
        languageCode: input.language,
        sessionToken: input.sessionToken,
      });
      const { body } = await notFoundOn404(
        'google',
        requestJson(url, {
          service,
          headers: { 'x-goog-api-key': key, 'x-goog-fieldmask': DETAILS_FIELD_MASK },
          timeoutMs,
          signal,
        }),
      );
      const place = parseUpstreamBody(service, detailsSchema, body);
      // A place without a location cannot be put on the map; to the widget it does not exist.
      if (!place.location) throw new PlaceNotFoundError('google');
      const component = (type: string) => place.addressComponents.find((c) => c.types.includes(type));
      const country = component('country');
      return {
        lat: place.location.latitude,
        lng: place.location.longitude,
        address: place.formattedAddress ?? place.displayName?.text ?? '',
        name: presentOrUndefined(place.displayName?.text),
        city: presentOrUndefined((component('locality') ?? component('postal_town'))?.longText),
        state: presentOrUndefined(component('administrative_area_level_1')?.longText),
        zip: presentOrUndefined(component('postal_code')?.longText),
        country: presentOrUndefined(country?.longText),
        country_code: presentOrUndefined(country?.shortText?.toUpperCase()),
      };
    },
  };
}
