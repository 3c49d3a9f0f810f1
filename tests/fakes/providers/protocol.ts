// What a provider fake's handler sees and answers: the request with the provider's prefix
// already taken off the path, and a status with a JSON body (or no answer at all).
import type { IncomingHttpHeaders } from 'node:http';

export interface FakeRequest {
  method: string;
  /** The path under the provider's base URL, e.g. `/v1/places:autocomplete`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined without one. */
  body: unknown;
}

export interface FakeAnswer {
  status: number;
  body: unknown;
}

export type FakeHandler = (request: FakeRequest) => FakeAnswer;

export const answer = (status: number, body: unknown): FakeAnswer => ({ status, body });

/** Comma-separated list parameter -> trimmed, non-empty items. */
export const listParam = (value: string | null | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** `lat,lng` (or `lng,lat` with swap) -> a point, undefined when absent or malformed. */
export function pointParam(value: string | null | undefined, order: 'latlng' | 'lnglat') {
  const [first, second] = listParam(value).map(Number);
  if (first === undefined || second === undefined || !Number.isFinite(first) || !Number.isFinite(second)) {
    return undefined;
  }
  return order === 'latlng' ? { lat: first, lng: second } : { lat: second, lng: first };
}

export const limitParam = (value: string | null | undefined, fallback: number) => {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
};
