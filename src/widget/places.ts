// Place search through the service: GET {API}/mapping/autocomplete for suggestions, then
// GET {API}/mapping/places for the chosen one's position. Both are public and rate limited
// (30 a minute per IP); failures come back as a kind the search box can explain.
import type { LatLng } from './types.ts';

export interface Suggestion {
  place_id: string;
  description: string;
}

export interface Place extends LatLng {
  address: string;
}

export type PlaceFailureKind = 'rate_limited' | 'unavailable' | 'not_found' | 'forbidden';

export class PlaceSearchError extends Error {
  constructor(readonly kind: PlaceFailureKind) {
    super(kind);
  }
}

export interface PlaceSearch {
  suggest(query: string, signal: AbortSignal): Promise<{ suggestions: Suggestion[]; provider: string }>;
  resolve(suggestion: Suggestion, provider: string, signal: AbortSignal): Promise<Place>;
}

async function getJson(url: string, signal?: AbortSignal): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'omit', mode: 'cors', signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new PlaceSearchError('unavailable');
  }
  if (response.status === 429) throw new PlaceSearchError('rate_limited');
  // The finder's current authorized_urls refuse this page: a published copy older than the
  // list still showed the locator.
  if (response.status === 403) throw new PlaceSearchError('forbidden');
  if (response.status === 404) throw new PlaceSearchError('not_found');
  if (!response.ok) throw new PlaceSearchError('unavailable');
  return response.json();
}

export function createPlaceSearch(options: {
  apiUrl: string;
  token: string;
  country: string | null;
  /** Suggestions are biased toward this point when there is one. */
  near: () => LatLng | null;
}): PlaceSearch {
  const { apiUrl, token, country, near } = options;
  return {
    async suggest(query, signal) {
      const params = new URLSearchParams({ q: query, finder_key: token });
      const point = near();
      if (point) {
        params.set('lat', point.lat.toFixed(5));
        params.set('lng', point.lng.toFixed(5));
      }
      if (country) params.set('country', country);
      const body = (await getJson(`${apiUrl}/mapping/autocomplete?${params}`, signal)) as {
        suggestions?: unknown;
        provider?: unknown;
      };
      const suggestions = Array.isArray(body?.suggestions)
        ? (body.suggestions as Suggestion[]).filter(
            (item) => typeof item?.place_id === 'string' && typeof item.description === 'string',
          )
        : [];
      return { suggestions, provider: typeof body?.provider === 'string' ? body.provider : '' };
    },

    async resolve(suggestion, provider, signal) {
      const params = new URLSearchParams({ place_id: suggestion.place_id, provider, finder_key: token });
      const body = (await getJson(`${apiUrl}/mapping/places?${params}`, signal)) as
        | Partial<Place>
        | undefined;
      const lat = Number(body?.lat);
      const lng = Number(body?.lng);
      if (!Number.isFinite(lat) || !Number.isFinite(lng)) throw new PlaceSearchError('not_found');
      return { lat, lng, address: typeof body?.address === 'string' ? body.address : suggestion.description };
    },
  };
}
