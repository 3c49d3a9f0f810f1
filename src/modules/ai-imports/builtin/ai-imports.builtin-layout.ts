// How a pasted list is laid out, and its cutting into one entry per location: a table with a
// header row, one location per line (delimited rows, "Name - address", comma lists, numbered
// or bulleted), or one per block (blank-line separated, bulleted with continuation lines, or
// name/address/phone lines one after another). The entries' content is read elsewhere.
import { countryOf, parsePostalLine, streetScore } from './ai-imports.builtin-address.ts';
import { extractContacts, isOpeningHours } from './ai-imports.builtin-contacts.ts';

export type ColumnKind =
  | 'name'
  | 'address'
  | 'address2'
  | 'city'
  | 'state'
  | 'zip'
  | 'country'
  | 'phone'
  | 'website'
  | 'email'
  | 'lat'
  | 'lng'
  | 'tags'
  | 'hours';

export interface Entry {
  /** The entry's lines as pasted, list markers removed. */
  lines: string[];
  /** Cells by column, for a row of a table whose header named its columns. */
  cells?: { kind: ColumnKind; value: string }[];
}

export type Layout = 'table' | 'lines' | 'blocks' | 'mixed' | 'empty';

const COLUMN_NAMES: Record<string, ColumnKind> = {};
const columns: [ColumnKind, string][] = [
  [
    'name',
    'name|store|store name|shop|shop name|location|location name|branch|title|filiale|geschäft|name der filiale|magasin|boutique|nom|enseigne|business|business name',
  ],
  [
    'address',
    'address|address 1|address line 1|address1|street|street address|straße|strasse|adresse|anschrift|rue|addr',
  ],
  ['address2', 'address 2|address line 2|address2|suite|unit'],
  ['city', 'city|town|ort|stadt|ville|locality|commune'],
  ['state', 'state|region|province|county|bundesland|département|departement|st'],
  ['zip', 'zip|zip code|zipcode|postcode|post code|postal code|postalcode|plz|code postal|cp|postleitzahl'],
  ['country', 'country|land|pays'],
  ['phone', 'phone|phone number|tel|tel.|telephone|telefon|téléphone|telephone number|fon|mobile'],
  ['website', 'website|web|url|site|site web|homepage|webseite|internet'],
  ['email', 'email|e-mail|mail|courriel|email address'],
  ['lat', 'lat|latitude|breite|breitengrad'],
  ['lng', 'lng|lon|long|longitude|länge|längengrad'],
  ['tags', 'tags|tag|labels|categories|category|kategorie|catégorie'],
  ['hours', "hours|opening hours|opening times|open|öffnungszeiten|horaires|heures d'ouverture"],
];
for (const [kind, names] of columns) for (const name of names.split('|')) COLUMN_NAMES[name] = kind;

const columnKind = (cell: string) =>
  COLUMN_NAMES[
    cell
      .trim()
      .toLowerCase()
      .replace(/[:*]+$/, '')
  ];

/** Table delimiters, most specific first; a comma counts only for a header row. */
const DELIMITERS = ['\t', '|', ';', ','] as const;
type Delimiter = (typeof DELIMITERS)[number];

/** Splits a delimited row, honouring double quotes as spreadsheets and CSV write them. */
export function splitCells(line: string, delimiter: Delimiter): string[] {
  const cells: string[] = [];
  let current = '';
  let quoted = false;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (char === '"') {
      if (quoted && line[index + 1] === '"') {
        current += '"';
        index++;
      } else if (quoted || current.trim() === '') {
        quoted = !quoted;
      } else {
        current += char;
      }
    } else if (char === delimiter && !quoted) {
      cells.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  cells.push(current.trim());
  // Markdown tables put a pipe at both ends.
  if (delimiter === '|') {
    if (cells[0] === '') cells.shift();
    if (cells.at(-1) === '') cells.pop();
  }
  return cells;
}

/** The delimiter of a row that has at least two non-empty cells by it; commas excluded. */
export function rowDelimiter(line: string): Exclude<Delimiter, ','> | null {
  for (const delimiter of ['\t', '|', ';'] as const) {
    if (line.includes(delimiter) && splitCells(line, delimiter).filter(Boolean).length >= 2) return delimiter;
  }
  return null;
}

interface Header {
  delimiter: Delimiter;
  kinds: (ColumnKind | null)[];
}

/** A header row: delimited cells of short words, two or more known column names, a name or address among them. */
function readHeader(line: string): Header | null {
  for (const delimiter of DELIMITERS) {
    if (!line.includes(delimiter)) continue;
    const cells = splitCells(line, delimiter);
    if (cells.length < 2 || cells.some((cell) => /\d/.test(cell) || cell.split(/\s+/).length > 4)) continue;
    const kinds = cells.map((cell) => columnKind(cell) ?? null);
    const known = kinds.filter(Boolean).length;
    if (known >= 2 && (kinds.includes('name') || kinds.includes('address'))) return { delimiter, kinds };
  }
  return null;
}

// "(12)" but not "(217)": a three-digit bracket opens a US phone number.
const MARKER = /^\s*(?:[-*•·▪►✓–—]|\d{1,3}[.)]|\(\d{1,2}\)|[a-z]\))\s+/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const DECORATION = /^[\s\-=_*#~.]*$/;

export const stripMarker = (line: string) => line.replace(MARKER, '').trim();
const hasMarker = (line: string) => MARKER.test(line) && stripMarker(line) !== '';

/** A heading ("Stores in Berlin:", "## North"): a line that names a group, not a location. */
function isHeading(line: string): boolean {
  const text = line.trim();
  if (/^#{1,6}\s/.test(text)) return true;
  return /:$/.test(text) && !/\d/.test(text) && text.split(/\s+/).length <= 8;
}

/**
 * Does this line hold a whole location by itself? Delimited cells, "Name - address", or a
 * comma list with a street or postcode in it. Lines of a block hold a part each.
 */
function isCompleteRow(line: string): boolean {
  const text = stripMarker(line);
  if (rowDelimiter(text)) return true;
  const parts = text.split(/\s+[-–—]\s+|:\s+|,/).map((part) => part.trim());
  if (parts.length < 2) return false;
  const [first, ...rest] = parts;
  const isAddress = (part: string) => streetScore(part) === 2 || parsePostalLine(part) !== null;
  // A name may read like words and a number ("Shop 12") when a clear street follows it.
  const score = streetScore(first!);
  const nameFirst = score === 0 || (score === 1 && rest.some((part) => streetScore(part) === 2));
  return nameFirst && parsePostalLine(first!) === null && rest.some(isAddress);
}

/** A line that can only start a new location: no address, contact, postcode or country in it. */
function isNameLine(line: string): boolean {
  const text = stripMarker(line);
  if (text === '' || /\d/.test(text) || countryOf(text)) return false;
  // "Tags: books, cafe", "Hours: ...", "#wifi", "Sun closed" belong to the block above.
  if (/^[\p{L} .-]{2,24}:\s*\S/u.test(text) || text.startsWith('#') || isOpeningHours(text)) return false;
  const contacts = extractContacts(text);
  return contacts.rest === text && streetScore(text) === 0;
}

/** Has this block already what a location needs, so that a name line after it starts the next? */
function isCompleteBlock(lines: string[]): boolean {
  if (lines.length === 1 && isCompleteRow(lines[0]!)) return true;
  return lines.some((line) => {
    const contacts = extractContacts(line);
    if (contacts.phone || contacts.email || contacts.website) return true;
    return line.split(',').some((part) => parsePostalLine(part) !== null);
  });
}

/** A group without blank lines: markers first, then rows, then blocks split at name lines. */
function splitGroup(group: string[]): Entry[] {
  if (group.some(hasMarker)) {
    const entries: Entry[] = [];
    let current: string[] | null = null;
    for (const line of group) {
      if (hasMarker(line)) {
        current = [stripMarker(line)];
        entries.push({ lines: current });
      } else if (current && (/^\s/.test(line) || !isCompleteRow(line))) {
        // Indented, or not a location by itself: the marked entry continues.
        current.push(line.trim());
      } else {
        current = null;
        entries.push({ lines: [line.trim()] });
      }
    }
    return entries;
  }
  if (group.length === 1) return [{ lines: [group[0]!.trim()] }];
  const complete = group.filter(isCompleteRow).length;
  if (complete / group.length >= 0.6) return group.map((line) => ({ lines: [line.trim()] }));

  const entries: Entry[] = [];
  let current: string[] = [];
  for (const line of group) {
    if (current.length > 0 && (isNameLine(line) || isCompleteRow(line)) && isCompleteBlock(current)) {
      entries.push({ lines: current });
      current = [];
    }
    current.push(line.trim());
  }
  if (current.length > 0) entries.push({ lines: current });
  return entries;
}

function tableEntry(line: string, header: Header): Entry {
  const cells = splitCells(line, header.delimiter);
  return {
    lines: [line.trim()],
    cells: header.kinds.flatMap((kind, index) => {
      const value = cells[index]?.trim();
      return kind && value ? [{ kind, value }] : [];
    }),
  };
}

/** Normalises line ends, no-break and zero-width spaces; keeps tabs (they separate columns). */
export const cleanText = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/[\u200b-\u200d\ufeff]/g, '')
    .split('\n')
    .map((line) => line.replace(/[ ]+$/, ''))
    .join('\n');

/** Cuts pasted text into one entry per location, and names the layout it found. */
export function splitEntries(text: string): { layout: Layout; entries: Entry[] } {
  const lines = cleanText(text)
    .split('\n')
    .filter((line) => !TABLE_RULE.test(line) || line.trim() === '')
    .filter((line) => line.trim() === '' || !DECORATION.test(line));

  // A table's header row may follow a title line or two ("Our stores", "Updated May").
  const leading = lines
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => line.trim() !== '' && !isHeading(line))
    .slice(0, 3);
  const found = leading
    .map(({ line, index }) => ({ header: readHeader(line), index }))
    .find((row) => row.header);
  if (found?.header) {
    const header = found.header;
    const entries: Entry[] = [];
    for (const line of lines.slice(found.index + 1)) {
      if (line.trim() === '' || isHeading(line)) continue;
      if (splitCells(line, header.delimiter).length >= 2) entries.push(tableEntry(line, header));
      else entries.push({ lines: [stripMarker(line)] });
    }
    return { layout: 'table', entries };
  }

  const groups: string[][] = [[]];
  for (const line of lines) {
    if (line.trim() === '') groups.push([]);
    else if (!isHeading(line)) groups.at(-1)!.push(line);
  }
  const entries = groups.filter((group) => group.length > 0).flatMap(splitGroup);
  const multiLine = entries.filter((entry) => entry.lines.length > 1).length;
  const layout: Layout =
    entries.length === 0
      ? 'empty'
      : multiLine === 0
        ? 'lines'
        : multiLine === entries.length
          ? 'blocks'
          : 'mixed';
  return { layout, entries };
}
