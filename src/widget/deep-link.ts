// The widget's view in the page's URL hash, so a reload or a shared link opens the same view:
// `#lf-<first 8 characters of the token>=loc:5;q:Berlin;lat:52.52;lng:13.405;t:wifi,atm;s:3;r:0`
// (loc: selected location id; q, lat, lng: the search; t: tag slugs; s: set ids; r: indexes
// of advanced refinements). Several widgets share the hash as `&`-separated entries, and
// whatever else the host page keeps there is left as it was.
export interface ViewState {
  location?: number;
  query?: string;
  lat?: number;
  lng?: number;
  tags?: string[];
  sets?: number[];
  refinements?: number[];
}

export const deepLinkKey = (token: string) => `lf-${token.slice(0, 8)}`;

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

const integers = (text: string) =>
  text
    .split(',')
    .map(Number)
    .filter((value) => Number.isInteger(value) && value >= 0);

function coordinate(text: string, limit: number): number | undefined {
  const value = Number(text);
  return text !== '' && Number.isFinite(value) && Math.abs(value) <= limit ? value : undefined;
}

export function readViewState(hash: string, key: string): ViewState {
  const entry = hash
    .replace(/^#/, '')
    .split('&')
    .find((part) => part.startsWith(`${key}=`));
  const state: ViewState = {};
  if (!entry) return state;
  for (const pair of entry.slice(key.length + 1).split(';')) {
    const colon = pair.indexOf(':');
    if (colon < 1) continue;
    const name = pair.slice(0, colon);
    const raw = pair.slice(colon + 1);
    if (name === 'loc' && /^\d+$/.test(raw)) state.location = Number(raw);
    else if (name === 'q') state.query = decode(raw);
    else if (name === 'lat') state.lat = coordinate(raw, 90);
    else if (name === 'lng') state.lng = coordinate(raw, 180);
    else if (name === 't')
      state.tags = raw
        .split(',')
        .map(decode)
        .filter((slug): slug is string => !!slug);
    else if (name === 's') state.sets = integers(raw);
    else if (name === 'r') state.refinements = integers(raw);
  }
  if (state.lat === undefined || state.lng === undefined) {
    delete state.lat;
    delete state.lng;
  }
  return state;
}

function serialize(state: ViewState): string {
  const pairs: string[] = [];
  if (state.location !== undefined) pairs.push(`loc:${state.location}`);
  if (state.query) pairs.push(`q:${encodeURIComponent(state.query)}`);
  if (state.lat !== undefined && state.lng !== undefined) {
    pairs.push(`lat:${state.lat.toFixed(5)}`, `lng:${state.lng.toFixed(5)}`);
  }
  if (state.tags?.length) pairs.push(`t:${state.tags.map(encodeURIComponent).join(',')}`);
  if (state.sets?.length) pairs.push(`s:${state.sets.join(',')}`);
  if (state.refinements?.length) pairs.push(`r:${state.refinements.join(',')}`);
  return pairs.join(';');
}

/** The page's hash with this widget's entry replaced (or removed when the view is the default). */
export function writeViewState(hash: string, key: string, state: ViewState): string {
  const others = hash
    .replace(/^#/, '')
    .split('&')
    .filter((part) => part !== '' && !part.startsWith(`${key}=`));
  const value = serialize(state);
  const parts = value ? [...others, `${key}=${value}`] : others;
  return parts.length ? `#${parts.join('&')}` : '';
}
