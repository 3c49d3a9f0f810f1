// Photon, the default keyless provider (PHOTON_URL). Suggestions come from GET {base}/api
// (src/lib/photon-client.ts). Photon has no lookup by id, so its place_id is stateless: the chosen
// feature itself (point, address parts, OSM reference), as JSON in base64url behind the
// version prefix `p1.`. `place` decodes it without calling Photon: no second request, no cache
// to share between processes, and an id that keeps working when the server is reimported.
// A visitor can forge such an id, but all it gets back is what it put in, and it is validated
// like any input (finite coordinates in range, bounded strings).
import { z } from 'zod';
import {
  type PhotonFeature,
  photonCity,
  photonLabel,
  photonStreetLine,
  searchPhoton,
} from '../../../lib/photon-client.ts';
import { PlaceNotFoundError } from './place-providers.errors.ts';
import {
  biasPoint,
  DEFAULT_SUGGESTION_LIMIT,
  type PlaceDetails,
  type PlaceProvider,
  type PlaceProviderOptions,
  presentOrUndefined,
} from './place-providers.types.ts';

const PREFIX = 'p1.';
/** Generous for a handful of address parts of at most 200 characters each; a bound for routes too. */
export const PHOTON_PLACE_ID_MAX_LENGTH = 2048;

const part = z.string().max(200).optional();

/** Short keys: the id travels in the widget's URLs. */
const encodedSchema = z.object({
  la: z.number().min(-90).max(90),
  ln: z.number().min(-180).max(180),
  a: z.string().min(1).max(600),
  n: part,
  c: part,
  s: part,
  z: part,
  co: part,
  cc: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional(),
  /** OSM reference ("N240109189"): tells apart places with equal addresses. */
  o: z.string().max(40).optional(),
});

type Encoded = z.output<typeof encodedSchema>;

const clip = (value: string | undefined) => presentOrUndefined(value)?.slice(0, 200);

export function encodePhotonPlaceId({ lat, lng, properties: p }: PhotonFeature): string {
  const encoded: Encoded = {
    la: lat,
    ln: lng,
    a: photonLabel(p).slice(0, 600) || `${lat},${lng}`,
    n: clip(p.name ?? photonStreetLine(p)),
    c: clip(photonCity(p)),
    s: clip(p.state),
    z: clip(p.postcode),
    co: clip(p.country),
    cc: presentOrUndefined(p.countrycode)?.toUpperCase(),
    o: p.osm_type && p.osm_id !== undefined ? `${p.osm_type}${p.osm_id}` : undefined,
  };
  return PREFIX + Buffer.from(JSON.stringify(encoded)).toString('base64url');
}

/** The place an id describes, or undefined when the id is not one this provider made. */
export function decodePhotonPlaceId(placeId: string): PlaceDetails | undefined {
  if (!placeId.startsWith(PREFIX) || placeId.length > PHOTON_PLACE_ID_MAX_LENGTH) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(placeId.slice(PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = encodedSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const e = parsed.data;
  return {
    lat: e.la,
    lng: e.ln,
    address: e.a,
    name: e.n,
    city: e.c,
    state: e.s,
    zip: e.z,
    country: e.co,
    country_code: e.cc,
  };
}

export function createPhotonPlaceProvider({ baseUrl, timeoutMs }: PlaceProviderOptions): PlaceProvider {
  return {
    slug: 'photon',

    async autocomplete(input, { signal }) {
      const point = biasPoint(input);
      const features = await searchPhoton(
        baseUrl,
        {
          q: input.q,
          lat: point?.lat,
          lon: point?.lng,
          limit: input.limit ?? DEFAULT_SUGGESTION_LIMIT,
          lang: input.language,
          countrycode: input.country,
        },
        { service: 'photon', timeoutMs, signal },
      );
      return features.map((feature) => ({
        place_id: encodePhotonPlaceId(feature),
        description: photonLabel(feature.properties),
      }));
    },

    async place(input) {
      const place = decodePhotonPlaceId(input.placeId);
      if (!place) throw new PlaceNotFoundError('photon');
      return place;
    },
  };
}
