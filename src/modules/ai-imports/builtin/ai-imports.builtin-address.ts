// The built-in parser's knowledge of address shapes: countries, US states, the postcode lines
// of the US ("Springfield, IL 62704"), the UK ("London SW1A 2AA") and of Germany and France
// ("10115 Berlin", "75001 Paris"), and what a street line looks like in each. Pure lookups and
// regular expressions over one segment of text at a time.

export const COUNTRY = {
  us: 'United States',
  uk: 'United Kingdom',
  de: 'Germany',
  fr: 'France',
} as const;

/** Names people write for a country -> the English name the item stores. */
const COUNTRY_ALIASES: Record<string, string> = {
  us: COUNTRY.us,
  usa: COUNTRY.us,
  'u.s.': COUNTRY.us,
  'u.s.a.': COUNTRY.us,
  'united states': COUNTRY.us,
  'united states of america': COUNTRY.us,
  uk: COUNTRY.uk,
  'u.k.': COUNTRY.uk,
  gb: COUNTRY.uk,
  'united kingdom': COUNTRY.uk,
  'great britain': COUNTRY.uk,
  britain: COUNTRY.uk,
  england: COUNTRY.uk,
  scotland: COUNTRY.uk,
  wales: COUNTRY.uk,
  'northern ireland': COUNTRY.uk,
  de: COUNTRY.de,
  germany: COUNTRY.de,
  deutschland: COUNTRY.de,
  fr: COUNTRY.fr,
  france: COUNTRY.fr,
  austria: 'Austria',
  österreich: 'Austria',
  switzerland: 'Switzerland',
  schweiz: 'Switzerland',
  suisse: 'Switzerland',
  netherlands: 'Netherlands',
  'the netherlands': 'Netherlands',
  belgium: 'Belgium',
  belgique: 'Belgium',
  ireland: 'Ireland',
  spain: 'Spain',
  españa: 'Spain',
  italy: 'Italy',
  italia: 'Italy',
  canada: 'Canada',
};

/**
 * A segment that is only a country name ("USA", "Deutschland") -> its English name. "DE" alone
 * is left alone: in "Wilmington, DE, 19801" it is Delaware.
 */
export function countryOf(segment: string): string | null {
  const key = segment.trim().replace(/\.$/, '').toLowerCase();
  return key === 'de' ? null : (COUNTRY_ALIASES[key] ?? null);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The one country a free-text scope names ("Pubs across the UK"), or null when it names none or
 * several. Short codes (US, UK, DE, ...) count only in capitals, so "us" and "de" as words do not.
 */
export function countryInScope(scope: string): string | null {
  const found = new Set<string>();
  for (const [alias, country] of Object.entries(COUNTRY_ALIASES)) {
    const isCode = alias.replace(/\./g, '').length <= 3;
    const escaped = escapeRegExp(isCode ? alias.toUpperCase() : alias);
    if (new RegExp(`(?<![\\p{L}.])${escaped}(?!\\p{L})`, isCode ? 'u' : 'iu').test(scope)) found.add(country);
  }
  return found.size === 1 ? [...found][0]! : null;
}

const US_STATES: Record<string, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  PR: 'Puerto Rico',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};
const STATE_NAMES = Object.values(US_STATES).sort((a, b) => b.length - a.length);

/** A US state written as its postal code ("IL", capitals only) or its name ("Illinois"). */
export function isUsState(value: string): boolean {
  const trimmed = value.trim().replace(/\.$/, '');
  if (/^[A-Z]{2}$/.test(trimmed)) return trimmed in US_STATES;
  return STATE_NAMES.some((name) => name.toLowerCase() === trimmed.toLowerCase());
}

// Street words. English ones end a street name ("Main St"); French ones start it ("rue de
// Rivoli"); German ones end a compound ("Hauptstraße", "Kurfürstendamm") or stand alone.
const EN_STREET =
  'street|st|road|rd|avenue|ave|av|boulevard|blvd|lane|ln|drive|dr|way|court|ct|place|pl|square|sq|parkway|pkwy|highway|hwy|terrace|ter|crescent|cres|close|row|walk|circle|cir|trail|trl|plaza|broadway|grove|gardens|mews|parade|pike|turnpike|expressway|expy|freeway|fwy';
const FR_STREET =
  'rue|avenue|av|bd|boulevard|place|pl|quai|chemin|allée|allee|impasse|cours|route|rte|faubourg|fbg|passage|square|rond-point|esplanade|promenade|parvis|voie|galerie|centre commercial|zone|za|zac|zi';
const DE_STREET =
  'straße|strasse|str|weg|platz|allee|gasse|damm|ring|ufer|chaussee|markt|steig|pfad|promenade|berg|brücke|hof|kai|stieg|wall|graben|tor|anger|feld|garten';

const EN_STREET_WORD = new RegExp(`\\b(?:${EN_STREET})\\b\\.?`, 'i');
const EN_STREET_END = new RegExp(`\\b(?:${EN_STREET})\\.?$`, 'i');
const FR_STREET_START = new RegExp(
  `^(?:\\d{1,4}(?:\\s?(?:bis|ter|[a-c]))?,?\\s+)?(?:${FR_STREET})\\.?\\s+\\S`,
  'iu',
);
const DE_STREET_WORD = new RegExp(`(?:${DE_STREET})\\.?(?=\\s|\\d|$)`, 'iu');
const HOUSE_NUMBER_FIRST = /^\d{1,5}[a-z]?(?:[-/]\d{1,5}[a-z]?)?(?:\s?(?:bis|ter))?,?\s+\p{L}/iu;
const HOUSE_NUMBER_LAST = /^\p{L}[\p{L}\p{M}\s.'’-]*\s\d{1,4}\s?[a-z]?(?:\s?[-/]\s?\d{1,4}\s?[a-z]?)?$/iu;
const PO_BOX = /^(?:p\.?\s?o\.?\s?box|postfach|bp|boîte postale)\b/i;
const LINE_TWO =
  /^(?:suite|ste|unit|apt|apartment|floor|fl|level|building|bldg|shop|stand|room|#\s?\d|\d+(?:st|nd|rd|th)\s+floor|\d+\.?\s?(?:og|obergeschoss|etage|stock)|eg|ug|erdgeschoss|untergeschoss|etage|étage|bâtiment|bat|c\/o)(?![\p{L}\p{N}])/iu;

/** A second address line ("Suite 200", "Unit 4", "2nd Floor"): joined to the street. */
export const isAddressLineTwo = (segment: string) => LINE_TWO.test(segment.trim());

/**
 * How much a segment reads as a street line: 2 for a clear one ("123 Main St", "221B Baker
 * Street", "Hauptstraße 5", "12 rue de Rivoli", "rue de Rivoli", "High Street", "PO Box 12"),
 * 1 for words and a number that may be a street or a name ("Unter den Linden 12", "Filiale 3")
 * or a second line ("Suite 200"), 0 for anything else. A five-digit number followed only by
 * words is a postcode line ("10115 Berlin"), not a street.
 */
export function streetScore(segment: string): 0 | 1 | 2 {
  const text = segment.trim();
  if (text === '') return 0;
  if (PO_BOX.test(text) || FR_STREET_START.test(text)) return 2;
  if (isAddressLineTwo(text)) return 1;
  const hasDigit = /\d/.test(text);
  const hasStreetWord = EN_STREET_WORD.test(text) || DE_STREET_WORD.test(text);
  if (HOUSE_NUMBER_FIRST.test(text)) {
    const number = /^\d+/.exec(text)![0];
    return number.length <= 4 || EN_STREET_WORD.test(text) ? 2 : 0;
  }
  if (hasDigit && hasStreetWord) return 2;
  if (HOUSE_NUMBER_LAST.test(text)) return 1;
  // A street without a number: "High Street", "Market Place".
  return EN_STREET_END.test(text) && text.split(/\s+/).length <= 4 ? 2 : 0;
}

export const isStreetLike = (segment: string) => streetScore(segment) > 0;

/** A place name: letters only, a few words, not a street. */
export function isPlaceName(segment: string): boolean {
  const text = segment.trim();
  return (
    text !== '' &&
    !/\d/.test(text) &&
    /^\p{L}[\p{L}\p{M}\s.'’()-]*$/u.test(text) &&
    text.split(/\s+/).length <= 4 &&
    !isStreetLike(text)
  );
}

/**
 * "123 Main St Springfield" -> street and city, cut after the last English street word; null
 * when there is no such word to cut at.
 */
export function splitStreetAndCity(text: string): { street: string; city: string } | null {
  const words = text.trim().split(/\s+/);
  for (let index = words.length - 2; index >= 1; index--) {
    if (new RegExp(`^(?:${EN_STREET})\\.?,?$`, 'i').test(words[index]!)) {
      const city = words.slice(index + 1).join(' ');
      if (!isPlaceName(city)) return null;
      return {
        street: words
          .slice(0, index + 1)
          .join(' ')
          .replace(/,$/, ''),
        city,
      };
    }
  }
  return null;
}

export interface PostalLine {
  zip: string;
  city: string | null;
  state: string | null;
  country: string | null;
  /** Text before the postcode part in the same segment: a city (US, UK) or a street (DE, FR). */
  before: string | null;
  /** What `before` holds when present. */
  beforeKind: 'city' | 'street';
}

const US_POSTAL = new RegExp(
  `^(.*?)[\\s,]*\\b([A-Z]{2}|${STATE_NAMES.join('|')})\\.?,?\\s+(\\d{5}(?:-\\d{4})?)$`,
  'u',
);
const UK_POSTCODE =
  /^(.*?)[\s,]*\b((?:GIR ?0AA)|(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2}))$/i;
const EU_POSTAL =
  /^(?:(.*?\S)[\s,]+)?(?:(D|DE|F|FR)\s?-\s?)?(\d{5})\s+(\p{L}[\p{L}\p{M}\s.'’()-]*?)(?:\s+cedex(?:\s+\d{1,2})?)?$/iu;

const emptyToNull = (value: string | undefined) => {
  const trimmed = value?.replace(/[\s,]+$/, '').trim();
  return trimmed ? trimmed : null;
};

/**
 * Reads a postcode line: US "Springfield, IL 62704" (state and ZIP, city before), UK "London
 * SW1A 2AA" (postcode last, city before), German/French "10115 Berlin" or "F-75001 Paris"
 * (postcode then city, a street possibly before). Null when the segment is none of these.
 */
export function parsePostalLine(segment: string): PostalLine | null {
  const text = segment.trim();
  const us = US_POSTAL.exec(text);
  if (us && isUsState(us[2]!)) {
    return {
      zip: us[3]!,
      state: us[2]!,
      city: null,
      country: COUNTRY.us,
      before: emptyToNull(us[1]),
      beforeKind: 'city',
    };
  }
  const uk = UK_POSTCODE.exec(text);
  if (uk) {
    const compact = uk[2]!.toUpperCase().replace(/\s+/g, '');
    return {
      zip: `${compact.slice(0, -3)} ${compact.slice(-3)}`,
      state: null,
      city: null,
      country: COUNTRY.uk,
      before: emptyToNull(uk[1]),
      beforeKind: 'city',
    };
  }
  const eu = EU_POSTAL.exec(text);
  if (eu) {
    const city = eu[4]!.trim();
    // "12345 Ventura Blvd" is a street with a five-digit house number, not a postcode line.
    if (isStreetLike(city) || EN_STREET_WORD.test(city)) return null;
    const prefix = eu[2]?.toUpperCase();
    const country =
      prefix === 'D' || prefix === 'DE' ? COUNTRY.de : prefix === 'F' || prefix === 'FR' ? COUNTRY.fr : null;
    return { zip: eu[3]!, city, state: null, country, before: emptyToNull(eu[1]), beforeKind: 'street' };
  }
  return null;
}

const DE_CITIES = new Set(
  'berlin hamburg münchen munich köln cologne frankfurt stuttgart düsseldorf leipzig dortmund essen bremen dresden hannover nürnberg duisburg bochum wuppertal bielefeld bonn münster mannheim karlsruhe augsburg wiesbaden freiburg kiel lübeck rostock potsdam mainz erfurt heidelberg regensburg würzburg'.split(
    ' ',
  ),
);
const FR_CITIES = new Set(
  'paris marseille lyon toulouse nice nantes strasbourg montpellier bordeaux lille rennes reims toulon grenoble dijon angers nîmes villeurbanne clermont-ferrand aix-en-provence brest tours amiens limoges annecy perpignan metz besançon orléans rouen caen nancy avignon'.split(
    ' ',
  ),
);

/**
 * Germany or France for a five-digit postcode without a country prefix, from the street's
 * words ("straße", "rue"), its letters (ß, é) or a known city; null when nothing tells.
 */
export function continentalCountry(street: string | null, city: string | null): string | null {
  const cityKey = city
    ?.toLowerCase()
    .replace(/\s+cedex.*$/, '')
    .trim();
  if (cityKey && DE_CITIES.has(cityKey)) return COUNTRY.de;
  if (cityKey && FR_CITIES.has(cityKey)) return COUNTRY.fr;
  if (cityKey?.startsWith('paris')) return COUNTRY.fr;
  if (!street) return null;
  if (FR_STREET_START.test(street) || /[éèêçàùâî]/i.test(street)) return COUNTRY.fr;
  if (DE_STREET_WORD.test(street) || /[ßäöü]/i.test(street)) return COUNTRY.de;
  return null;
}

/** "12, rue de Rivoli" -> "12 rue de Rivoli", so splitting at commas keeps the number with its street. */
export const joinFrenchHouseNumber = (line: string) =>
  line.replace(
    new RegExp(`^(\\s*\\d{1,4}(?:\\s?(?:bis|ter|[a-c]))?)\\s*,\\s+(?=(?:${FR_STREET})\\b)`, 'iu'),
    '$1 ',
  );
