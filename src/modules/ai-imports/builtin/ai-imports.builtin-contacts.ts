// The built-in parser's recognisers for what is not an address: phone numbers, emails,
// websites, coordinates, opening hours and hashtags. Each takes a piece of pasted text and
// returns what it found plus the text that is left, so the address rules never see them.

export interface Contacts {
  phone: string | null;
  email: string | null;
  website: string | null;
  /** A segment's text once contacts and their labels ("Tel:", "Web:") are taken out. */
  rest: string;
}

const LABEL =
  /(?:^|[\s,;|(])(?:tel|tél|tele|telefon|telephone|téléphone|phone|ph|fon|call|mobile|mob|handy|cell|fax|telefax|e-?mail|mail|courriel|web|website|webseite|site|internet|url|homepage|[tfemw])\s*\.?\s*[:.]?\s*$/i;
const FAX_LABEL = /(?:fax|telefax)\s*\.?\s*[:.]?\s*$/i;

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;

// Bare domains only with a common top-level domain, so "St.Louis" or "J.Crew" stay text.
const TLDS =
  'com|net|org|info|biz|io|co|app|dev|shop|store|online|site|cafe|coffee|restaurant|bar|eu|us|uk|de|fr|at|ch|nl|be|lu|it|es|pt|ie|dk|se|no|fi|pl|cz|ca|au|nz';
const URL_PATTERN = new RegExp(
  `(?:\\bhttps?://[^\\s,;|<>"'()]+|\\bwww\\.[^\\s,;|<>"'()]+|(?<![@\\p{L}\\p{N}.])[\\p{L}\\p{N}][\\p{L}\\p{N}-]*(?:\\.[\\p{L}\\p{N}-]+)*\\.(?:${TLDS})(?:\\.(?:uk|au|nz))?(?![\\p{L}\\p{N}-])(?:/[^\\s,;|<>"'()]*)?)`,
  'giu',
);

// A run of digits with the punctuation phone numbers are written with; what counts is checked
// afterwards (7-15 digits and a shape no street number or postcode has).
const PHONE_CANDIDATE =
  /(?<![\p{L}\p{N}+])(?:(?:\+|00)\s?)?(?:\(\s?\+?\d[\d\s]*\)\s?)?\d[\d\s()./-]{4,}\d(?![\p{L}\p{N}])/gu;
const US_PHONE = /^(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}$/;
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}$|^\d{1,2}[./]\d{1,2}[./]\d{2,4}$/;

/**
 * Is this a phone number? International (`+`/`00`), national with a trunk 0 (UK, DE, FR and
 * most of Europe) or the North American 3-3-4 shape; never a street number followed by a
 * postcode ("Hauptstraße 12 10115"), which starts with neither.
 */
export function isPhoneNumber(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15 || DATE_LIKE.test(candidate)) return false;
  const start = candidate.replace(/^[\s(]+/, '');
  return /^(?:\+|00|0)/.test(start) || US_PHONE.test(candidate.trim());
}

/** Removes [start, end) from text together with a contact label written just before it. */
function cut(text: string, start: number, end: number): string {
  const before = text.slice(0, start);
  const label = LABEL.exec(before);
  const from = label ? label.index + (/^[\s,;|(]/.test(label[0]) ? 1 : 0) : start;
  return `${text.slice(0, from)} ${text.slice(end)}`;
}

/** Separators and stray punctuation left around removed pieces. */
export const tidy = (text: string) =>
  text
    .replace(/\(\s*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,;|·•/:–—-]+|[\s,;|·•/:–—-]+$/g, '')
    .trim();

/** Takes the first email, website and phone (not fax) out of a piece of text. */
export function extractContacts(segment: string): Contacts {
  let text = segment;
  let email: string | null = null;
  let website: string | null = null;
  let phone: string | null = null;

  for (const match of [...text.matchAll(EMAIL)].reverse()) {
    email = match[0];
    text = cut(text, match.index, match.index + match[0].length);
  }
  for (const match of [...text.matchAll(URL_PATTERN)].reverse()) {
    website = match[0].replace(/[.,;:!?)]+$/, '');
    text = cut(text, match.index, match.index + match[0].length);
  }
  for (const match of [...text.matchAll(PHONE_CANDIDATE)].reverse()) {
    const candidate = match[0].trim();
    if (!isPhoneNumber(candidate)) continue;
    const isFax = FAX_LABEL.test(text.slice(0, match.index));
    if (!isFax) phone = tidy(candidate.replace(/\s+/g, ' '));
    text = cut(text, match.index, match.index + match[0].length);
  }
  return { phone, email, website, rest: tidy(text) };
}

export interface Coordinates {
  lat: number;
  lng: number;
  /** The text without the coordinates. */
  rest: string;
}

const COORDINATE_PAIR = /(?<![\d.])(-?\d{1,2}\.\d{3,})\s*[,;/ ]\s*(-?\d{1,3}\.\d{3,})(?![\d.])/;
const LABELLED_LAT = /\b(?:lat|latitude|breite)\s*[:=]?\s*(-?\d{1,2}\.\d+)/i;
const LABELLED_LNG = /\b(?:lng|lon|long|longitude|länge)\s*[:=]?\s*(-?\d{1,3}\.\d+)/i;

const inRange = (lat: number, lng: number) => Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

/**
 * A decimal coordinate pair ("52.5200, 13.4050") or labelled ones ("lat: 52.52 lng: 13.40").
 * At least three decimals for an unlabelled pair, so prices and versions are not read as places.
 */
export function extractCoordinates(text: string): Coordinates | null {
  const lat = LABELLED_LAT.exec(text);
  const lng = LABELLED_LNG.exec(text);
  if (lat && lng) {
    const pair = { lat: Number(lat[1]), lng: Number(lng[1]) };
    if (inRange(pair.lat, pair.lng)) {
      return { ...pair, rest: text.replace(LABELLED_LAT, ' ').replace(LABELLED_LNG, ' ') };
    }
  }
  const match = COORDINATE_PAIR.exec(text);
  if (!match) return null;
  const pair = { lat: Number(match[1]), lng: Number(match[2]) };
  if (!inRange(pair.lat, pair.lng)) return null;
  return { ...pair, rest: text.slice(0, match.index) + text.slice(match.index + match[0].length) };
}

const DAY =
  /\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday|daily|mo|di|mi|do|fr|sa|so|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|täglich|lun|mar|mer|jeu|ven|sam|dim|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)\b\.?/i;
const TIME =
  /\b\d{1,2}(?::\d{2}|\s?(?:am|pm|h|uhr))\b|\b\d{1,2}\s?[-–]\s?\d{1,2}(?::\d{2})?\s?(?:am|pm|h|uhr)?\b/i;
const HOURS_WORD = /\b(?:hours|opening|open|öffnungszeiten|geöffnet|horaires|ouvert)\b/i;
const CLOSED_WORD = /(?<![\p{L}])(?:closed|geschlossen|fermé|ruhetag)(?![\p{L}])/iu;

const DAYS_ONLY = new RegExp(
  `^\\s*${DAY.source}(?:\\s*(?:[-–&/+]|to|and|und|bis|et|à)\\s*${DAY.source})*\\s*$`,
  'i',
);

/** Days alone, no hours ("Mon", "Sat & Sun", "Mon-Wed"): a list of days cut at its commas. */
export function isDaysOnly(text: string): boolean {
  return DAYS_ONLY.test(text);
}

/** Opening hours ("Mon-Fri 9am-6pm", "Mo-Sa 9-20 Uhr", "Öffnungszeiten: ...", "Sun closed"): not an address. */
export function isOpeningHours(text: string): boolean {
  if (HOURS_WORD.test(text) && /\d/.test(text)) return true;
  return DAY.test(text) && (TIME.test(text) || CLOSED_WORD.test(text));
}

/** `#tag` words, for lists that mark their tags that way; digits-first (#12) is a number, not a tag. */
export function extractHashtags(text: string): { tags: string[]; rest: string } {
  const tags: string[] = [];
  const rest = text.replace(/(?<![\p{L}\p{N}&])#(\p{L}[\p{L}\p{N}_-]*)/gu, (_, tag: string) => {
    tags.push(tag);
    return ' ';
  });
  return { tags, rest };
}
