// Reads one entry of a pasted list (a line, a block or a table row) into a drafted location:
// contacts and coordinates first, then the address from the postcode line backwards (street
// before it, city in or before it), and the name from what is left at the front.

import { EMPTY_LOCATION_PAYLOAD } from '../ai-imports.normalize.ts';
import type { AiImportLocationPayload } from '../ai-imports.table.ts';
import {
  COUNTRY,
  continentalCountry,
  countryOf,
  isAddressLineTwo,
  isPlaceName,
  isStreetLike,
  isUsState,
  joinFrenchHouseNumber,
  type PostalLine,
  parsePostalLine,
  splitStreetAndCity,
  streetScore,
} from './ai-imports.builtin-address.ts';
import {
  extractContacts,
  extractCoordinates,
  extractHashtags,
  isDaysOnly,
  isOpeningHours,
  tidy,
} from './ai-imports.builtin-contacts.ts';
import { readOpeningHours } from './ai-imports.builtin-hours.ts';
import { type Entry, rowDelimiter, splitCells } from './ai-imports.builtin-layout.ts';

/** A drafted location in the keys of normalized_payload, plus the text it was read from. */
export interface DraftedLocation extends AiImportLocationPayload {
  /** The pasted text of this entry, so a reviewer sees where each item came from. */
  source_text: string;
}

export interface EntryContext {
  /** The country of items whose text names none and whose postcode does not tell (from geographic_scope). */
  defaultCountry: string | null;
}

/** What the parser reads from an entry's address lines: the draft's name and address fields. */
type Address = Pick<AiImportLocationPayload, 'name' | 'address' | 'city' | 'state' | 'zip' | 'country'>;

const commaParts = (text: string) =>
  text
    .split(/\s*[,·•]\s*/)
    .map((part) => part.trim())
    .filter(Boolean);

/** After "Name - ", the address parts may be separated by dashes too. */
const dashAndCommaParts = (text: string) =>
  text
    .split(/\s*[,·•]\s*|\s+[-–—]\s+/)
    .map((part) => part.trim())
    .filter(Boolean);

const isAddressPart = (part: string) => streetScore(part) === 2 || parsePostalLine(part) !== null;

const hasContact = (text: string) => {
  const found = extractContacts(text);
  return found.phone !== null || found.email !== null || found.website !== null;
};

const CONTACT_LABEL =
  /^(?:tel|tél|tele|telefon|telephone|téléphone|phone|ph|fon|fax|mobile|mob|e-?mail|mail|web|website|site|url|internet|homepage|hours|opening hours|öffnungszeiten|horaires|open)\.?$/i;

/**
 * "Name - address" or "Name: address": the name before the first dash (or colon) whose right
 * side reads as an address or a contact; null when no such split exists.
 */
export function splitNameDash(line: string): { name: string; rest: string } | null {
  for (const match of line.matchAll(/\s+[-–—]\s+|:\s+/g)) {
    const name = line.slice(0, match.index).trim();
    const rest = line.slice(match.index + match[0].length).trim();
    if (name === '' || rest === '' || CONTACT_LABEL.test(name) || streetScore(name) === 2) continue;
    const parts = dashAndCommaParts(rest);
    const first = parts[0] ?? '';
    if (parts.some(isAddressPart) || streetScore(first) > 0 || hasContact(first)) return { name, rest };
  }
  return null;
}

const FIELD_LABEL =
  /^(name|store|shop|filiale|magasin|boutique|address|adresse|anschrift|addr|street|tags|categories)\s*:\s*(.+)$/i;

interface Segments {
  nameHint: string | null;
  segments: string[];
  tags: string[];
}

/** The entry's text cut into segments, each holding one part (a name, a street, a phone...). */
function segmentsOf(lines: string[]): Segments {
  const result: Segments = { nameHint: null, segments: [], tags: [] };
  lines.forEach((raw, index) => {
    const line = joinFrenchHouseNumber(raw.trim());
    const label = FIELD_LABEL.exec(line);
    if (label) {
      const kind = label[1]!.toLowerCase();
      const value = label[2]!.trim();
      if (kind === 'tags' || kind === 'categories') result.tags.push(...commaParts(value));
      else if (['address', 'adresse', 'anschrift', 'addr', 'street'].includes(kind))
        result.segments.push(...commaParts(value));
      else result.nameHint ??= value;
      return;
    }
    if (index > 0) {
      result.segments.push(...commaParts(line));
      return;
    }
    const delimiter = lines.length === 1 ? rowDelimiter(line) : null;
    if (delimiter) {
      result.segments.push(...splitCells(line, delimiter).flatMap(commaParts));
      return;
    }
    const dash = splitNameDash(line);
    if (dash) {
      result.nameHint = dash.name;
      result.segments.push(...dashAndCommaParts(dash.rest));
      return;
    }
    const parts = commaParts(line);
    // The first line of a block is its name, commas and all, unless it holds address parts.
    if (lines.length > 1 && !parts.some(isAddressPart) && !hasContact(line)) result.segments.push(line);
    else result.segments.push(...parts);
  });
  return result;
}

/** "IL", "62704" as two segments (a comma between state and ZIP) become one postcode line. */
function joinStateAndZip(segments: string[]): string[] {
  const joined: string[] = [];
  for (const segment of segments) {
    const previous = joined.at(-1);
    if (previous !== undefined && /^\d{5}(?:-\d{4})?$/.test(segment) && isUsState(previous)) {
      joined[joined.length - 1] = `${previous} ${segment}`;
    } else {
      joined.push(segment);
    }
  }
  return joined;
}

/** Address lines start at the first street-like segment; a remark before it is left out. */
function fromFirstStreet(segments: string[]): string[] {
  const first = segments.findIndex(isStreetLike);
  return first > 0 ? segments.slice(first) : segments;
}

/**
 * The name, street, city, state, zip and country among an entry's address segments (contacts
 * and countries already taken out). Reads from the postcode line backwards when there is one.
 */
export function resolveAddress(input: string[], nameHint: string | null, context: EntryContext): Address {
  const segments = joinStateAndZip(input);
  let name = nameHint;
  let start = 0;
  const first = segments[0];
  if (name === null && first !== undefined && parsePostalLine(first) === null) {
    const score = streetScore(first);
    const laterStreet = segments.slice(1).some((segment) => streetScore(segment) === 2);
    if (score === 0 || (score === 1 && !isAddressLineTwo(first) && laterStreet)) {
      name = first;
      start = 1;
    }
  }
  const rest = segments.slice(start);

  let postal: PostalLine | null = null;
  let postalIndex = -1;
  for (let index = rest.length - 1; index >= 0 && !postal; index--) {
    postal = parsePostalLine(rest[index]!);
    if (postal) postalIndex = index;
  }

  let street: string[] = [];
  let city: string | null = null;
  let state: string | null = null;
  let zip: string | null = null;
  let country: string | null = null;

  if (postal) {
    ({ zip, state, city, country } = postal);
    const middle = rest.slice(0, postalIndex);
    let fusedStreet: string | null = null;
    if (postal.before !== null) {
      if (postal.beforeKind === 'street') fusedStreet = postal.before;
      else if (isStreetLike(postal.before)) {
        const split = splitStreetAndCity(postal.before);
        fusedStreet = split ? split.street : postal.before;
        city = split ? split.city : null;
      } else city = postal.before;
    }
    if (city === null && middle.length > 0 && isPlaceName(middle.at(-1)!)) {
      const last = middle.pop()!;
      // Street, city, county: "5 High St, Oxford, Oxfordshire, OX1 4AA".
      if (state === null && middle.length >= 2 && isPlaceName(middle.at(-1)!)) {
        city = middle.pop()!;
        state = last;
      } else {
        city = last;
      }
    }
    street = [...fromFirstStreet(middle), ...(fusedStreet ? [fusedStreet] : [])];
    if (country === null && postal.beforeKind === 'street') {
      country = continentalCountry(street.join(' ') || null, city);
    }
  } else {
    const streetIndex = rest.findIndex(isStreetLike);
    let next = 0;
    if (streetIndex >= 0) {
      next = streetIndex + 1;
      street = [rest[streetIndex]!];
      while (next < rest.length && isAddressLineTwo(rest[next]!)) street.push(rest[next++]!);
    } else {
      next = Math.max(0, rest.findIndex(isPlaceName));
    }
    // "New York" here is the city; a state follows as its code ("New York, NY").
    if (next < rest.length && isPlaceName(rest[next]!) && !/^[A-Z]{2}$/.test(rest[next]!))
      city = rest[next++]!;
    else if (street.length === 1) {
      // "123 Main St Springfield" without a comma.
      const split = splitStreetAndCity(street[0]!);
      if (split) {
        street = [split.street];
        city = split.city;
      }
    }
    if (next < rest.length && isUsState(rest[next]!)) {
      state = rest[next]!;
      country = COUNTRY.us;
    }
  }

  return {
    name,
    address: street.length > 0 ? street.join(', ') : null,
    city,
    state,
    zip,
    country: country ?? context.defaultCountry,
  };
}

const emptyLocation = (source: string): DraftedLocation => ({
  ...structuredClone(EMPTY_LOCATION_PAYLOAD),
  source_text: source,
});

/** A time of day as hours texts write it: "9", "09:30", "6pm", "14h", "18 Uhr". */
const TIME = String.raw`\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|h|uhr)?`;
/** An interval of two such times: "6pm-9pm", "14h-18h". */
const TIME_INTERVAL = new RegExp(`^${TIME}\\s*[–-]\\s*${TIME}$`, 'i');

/**
 * A segment that only goes on with the hours before it: times ("14-18" after "Mon-Fri 9-12",
 * "6pm-9pm" after "Mon-Fri 9am-5pm", "14h-18h" after "lun-ven 9h-12h").
 */
const isMoreHours = (segment: string) => {
  const text = segment.trim();
  return /^[\d\s:.–-]+(?:\s*(?:am|pm|h|uhr))?$/i.test(text) || TIME_INTERVAL.test(text);
};

/**
 * From segment `index`: days alone ("Mon", "Sat & Sun") up to the hours that follow them ("Fri
 * 9-18", and the times going on after those), as one hours text ("Mon, Wed, Fri 9-18") and the
 * last segment it takes; undefined when the segments are not that, or the text does not read.
 */
function daysBeforeHours(segments: string[], index: number): { text: string; last: number } | undefined {
  if (!isDaysOnly(segments[index]!)) return undefined;
  let last = index;
  while (last + 1 < segments.length && isDaysOnly(segments[last + 1]!)) last++;
  const hours = segments[last + 1];
  if (hours === undefined || !isOpeningHours(hours)) return undefined;
  last++;
  let text = segments
    .slice(index, last + 1)
    .map((segment) => segment.trim())
    .join(', ');
  while (last + 1 < segments.length && isMoreHours(segments[last + 1]!)) text += `, ${segments[++last]}`;
  return 'hours' in readOpeningHours(text) ? { text, last } : undefined;
}

/**
 * The week of an entry's hours texts, when readOpeningHours reads them all; else null (left
 * out): a week read in part ("Mon-Sat 9-18" of "Mon-Sat 9-18, Sun & holidays closed") would
 * say less than the text, or something else.
 */
function weekOf(texts: string[]): AiImportLocationPayload['hours'] {
  if (texts.length === 0) return null;
  const reading = readOpeningHours(texts.join('; '));
  return 'hours' in reading ? reading.hours : null;
}

/**
 * A location needs something to find it by: a street, a postcode, a contact or coordinates. A
 * name alone, or a name and a town ("Thanks, Anna"), is a heading or a remark.
 */
const isLocationLike = (location: DraftedLocation) =>
  [location.address, location.zip, location.phone, location.website, location.lat].some(
    (value) => value !== null,
  ) || location.custom_fields.email !== undefined;

const toNumber = (value: string) => {
  const number = Number(value.replace(',', '.'));
  return Number.isFinite(number) ? number : null;
};

/** A row of a table whose header named the columns. */
function readCells(entry: Entry, context: EntryContext): DraftedLocation {
  const location = emptyLocation(entry.lines.join('\n'));
  const addressLines: string[] = [];
  let explicitCountry: string | null = null;
  for (const { kind, value } of entry.cells ?? []) {
    switch (kind) {
      case 'address':
      case 'address2':
        addressLines.push(value);
        break;
      case 'country':
        explicitCountry = countryOf(value) ?? value;
        break;
      case 'phone':
        location.phone = extractContacts(value).phone ?? value;
        break;
      case 'email':
        location.custom_fields.email = value;
        break;
      case 'lat':
      case 'lng':
        location[kind] = toNumber(value);
        break;
      case 'hours':
        location.hours = weekOf([value]);
        break;
      case 'tags':
        location.tags.push(
          ...value
            .split(/[,|;]/)
            .map((tag) => tag.trim())
            .filter(Boolean),
        );
        break;
      default:
        location[kind] = value;
    }
  }
  // A whole address in one cell ("123 Main St, Springfield, IL 62704") fills the parts the
  // table has no column for.
  const segments = addressLines.flatMap((line) => commaParts(joinFrenchHouseNumber(line)));
  const parsed = resolveAddress(segments, location.name ?? '', { defaultCountry: null });
  location.address = parsed.address ?? (addressLines.join(', ') || null);
  location.city ??= parsed.city;
  location.state ??= parsed.state;
  location.zip ??= parsed.zip;
  const zip = location.zip;
  const zipCountry =
    zip === null
      ? null
      : (parsePostalLine(zip)?.country ??
        (location.state && isUsState(location.state) && /^\d{5}(?:-\d{4})?$/.test(zip) ? COUNTRY.us : null));
  location.country =
    explicitCountry ??
    parsed.country ??
    zipCountry ??
    (location.zip && /^\d{5}$/.test(location.zip)
      ? continentalCountry(location.address, location.city)
      : null) ??
    context.defaultCountry;
  return location;
}

/** One entry -> one drafted location, or null when the entry holds nothing to locate. */
export function parseEntry(entry: Entry, context: EntryContext): DraftedLocation | null {
  if (entry.cells) {
    const location = readCells(entry, context);
    return isLocationLike(location) ? location : null;
  }
  const source = entry.lines.join('\n');
  const location = emptyLocation(source);

  let lines = entry.lines;
  const coordinates = extractCoordinates(source);
  if (coordinates) {
    location.lat = coordinates.lat;
    location.lng = coordinates.lng;
    lines = coordinates.rest.split('\n');
  }
  // Remarks in brackets ("(drive-thru, open 24h)") would split into bogus address parts; a
  // bracket of digits only stays, it is part of a phone number ("(217)", "+49 (0)30").
  lines = lines
    .map((line) =>
      line
        .replace(/\((?=[^()]*\p{L})[^()]*\)|\[[^\]]*\]/gu, ' ')
        .replace(/ {2,}/g, ' ')
        .trim(),
    )
    .filter(Boolean);

  const { nameHint, segments, tags } = segmentsOf(lines);
  location.tags.push(...tags);
  const addressSegments: string[] = [];
  const hoursTexts: string[] = [];
  let explicitCountry: string | null = null;
  let name = nameHint;
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    const contacts = extractContacts(segment);
    location.phone ??= contacts.phone;
    location.website ??= contacts.website;
    if (contacts.email && location.custom_fields.email === undefined)
      location.custom_fields.email = contacts.email;
    const hashtags = extractHashtags(contacts.rest);
    location.tags.push(...hashtags.tags);
    const rest = tidy(hashtags.rest);
    if (rest === '') continue;
    const country = countryOf(rest);
    if (country) {
      explicitCountry ??= country;
      continue;
    }
    // Days listed at their commas go with the hours after them ("Mon, Wed, Fri 9-18").
    const listed = daysBeforeHours(segments, index);
    if (listed) {
      hoursTexts.push(listed.text);
      index = listed.last;
      continue;
    }
    // Hours ("Mon-Fri 9-12" reads as a name and a number too, so a street score of 1 is
    // hours when they read as such); those cut at their commas go on in the next segments.
    if (isOpeningHours(rest) && streetScore(rest) < 2 && parsePostalLine(rest) === null) {
      let text = rest;
      let last = index;
      while (last + 1 < segments.length && isMoreHours(segments[last + 1]!)) text += `, ${segments[++last]}`;
      if (streetScore(rest) === 0 || 'hours' in readOpeningHours(text)) {
        hoursTexts.push(text);
        index = last;
        continue;
      }
    }
    // A name line that also held a phone ("Blue Bottle Tel 555...") keeps its words as the name.
    if (
      name === null &&
      addressSegments.length === 0 &&
      rest !== segment &&
      streetScore(rest) === 0 &&
      !parsePostalLine(rest)
    ) {
      name = rest;
      continue;
    }
    addressSegments.push(rest);
  }

  const address = resolveAddress(addressSegments, name, context);
  Object.assign(location, address);
  location.hours = weekOf(hoursTexts);
  if (explicitCountry) location.country = explicitCountry;
  location.tags = [...new Set(location.tags)];
  return isLocationLike(location) ? location : null;
}
