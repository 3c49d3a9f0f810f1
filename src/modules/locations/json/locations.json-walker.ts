// The byte work of a streamed list: a text PostgreSQL wrote (locations.listed-json.ts) holds,
// between marks, the values it writes differently from JSON.stringify; rewriteMarked writes
// them as JavaScript does, in the text's own buffer. Separate from the queries so that the
// byte walking is tested on its own (tests/locations-json-walker.test.ts).
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  DIGIT_0,
  DIGIT_9,
  MINUS,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  SPACE,
} from '../../../lib/json-bytes.ts';

/**
 * Around a value PostgreSQL may write differently from JSON.stringify, in a list's text: a
 * float8 outside the range where both write plain decimals, or a custom-field object (jsonb
 * writes `{"a": 1.50}` where JavaScript writes `{"a":1.5}`, and orders integer keys last).
 * A raw U+0001 occurs nowhere else: to_json and jsonb escape control characters in strings.
 */
export const MARK = 0x01;

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

const isDigit = (byte: number) => byte >= DIGIT_0 && byte <= DIGIT_9;

/** The index of the quote that ends the JSON string starting at `start`, before `end`; or -1. */
function stringEnd(text: Buffer, start: number, end: number): number {
  for (let at = start + 1; at < end; at++) {
    const byte = text[at];
    if (byte === BACKSLASH) at++;
    else if (byte === QUOTE) return at;
  }
  return -1;
}

/** The end of a plain integer of at most 15 digits (held exactly by a double) at `start`, or -1. */
function integerEnd(text: Buffer, start: number, end: number): number {
  let at = text[start] === MINUS ? start + 1 : start;
  const digits = at;
  while (at < end && isDigit(text[at]!)) at++;
  return at > digits && at - digits <= 15 ? at : -1;
}

/** Whether `word` is at `start`, before `end`. */
function wordAt(text: Buffer, start: number, end: number, word: Buffer): boolean {
  if (start + word.length > end) return false;
  for (let i = 0; i < word.length; i++) if (text[start + i] !== word[i]) return false;
  return true;
}

/** The end of a string, boolean, null or short integer at `start`, or -1. */
function scalarEnd(text: Buffer, start: number, end: number): number {
  if (text[start] === QUOTE) {
    const close = stringEnd(text, start, end);
    return close === -1 ? -1 : close + 1;
  }
  if (wordAt(text, start, end, TRUE) || wordAt(text, start, end, NULL)) return start + 4;
  if (wordAt(text, start, end, FALSE)) return start + 5;
  return integerEnd(text, start, end);
}

/** The end of an array of scalarEnd values (a multiselect's), as jsonb writes it, or -1. */
function flatArrayEnd(text: Buffer, start: number, end: number): number {
  if (text[start + 1] === CLOSE_BRACKET) return start + 2;
  let at = start + 1;
  for (;;) {
    const valueEnd = scalarEnd(text, at, end);
    if (valueEnd <= 0) return -1;
    if (text[valueEnd] === CLOSE_BRACKET) return valueEnd + 1;
    if (text[valueEnd] !== COMMA || text[valueEnd + 1] !== SPACE) return -1;
    at = valueEnd + 2;
  }
}

/**
 * Whether jsonb's text of an object, text[start, end), becomes what JSON.stringify(JSON.parse())
 * writes by dropping the space jsonb writes after each `:` and `,` (strings are escaped alike):
 * an object whose keys are not all digits (JavaScript lists integer keys first) and whose
 * values are strings, booleans, null, short integers or flat arrays of them. Read only:
 * nothing is moved unless the whole value qualifies.
 */
function isCompactable(text: Buffer, start: number, end: number): boolean {
  if (text[start] !== OPEN_BRACE) return false;
  if (end - start === 2) return text[start + 1] === CLOSE_BRACE;
  let at = start + 1;
  for (;;) {
    if (text[at] !== QUOTE) return false;
    const keyEnd = stringEnd(text, at, end);
    if (keyEnd === -1) return false;
    let digitsOnly = keyEnd > at + 1;
    for (let i = at + 1; digitsOnly && i < keyEnd; i++) digitsOnly = isDigit(text[i]!);
    if (digitsOnly || text[keyEnd + 1] !== COLON || text[keyEnd + 2] !== SPACE) return false;
    const value = keyEnd + 3;
    const valueEnd =
      text[value] === OPEN_BRACKET ? flatArrayEnd(text, value, end) : scalarEnd(text, value, end);
    if (valueEnd <= 0) return false;
    if (valueEnd === end - 1 && text[valueEnd] === CLOSE_BRACE) return true;
    if (text[valueEnd] !== COMMA || text[valueEnd + 1] !== SPACE) return false;
    at = valueEnd + 2;
  }
}

/**
 * Copies text[start, end), a value isCompactable accepted, to `to` (not after `start`) without
 * the spaces outside its strings; answers where the copy ends. Byte by byte in place: no string
 * is made, which on a list of 100,000 locations was two thirds of the service's work.
 */
function compactInto(text: Buffer, start: number, end: number, to: number): number {
  let inString = false;
  for (let at = start; at < end; at++) {
    const byte = text[at]!;
    if (inString) {
      if (byte === BACKSLASH) text[to++] = text[at++]!;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === SPACE) continue;
    text[to++] = text[at]!;
  }
  return to;
}

/** A marked value JSON.stringify writes differently: a custom-field object, or a float8. */
const rewritten = (value: string) =>
  value.startsWith('{')
    ? JSON.stringify(JSON.parse(value))
    : // Number('NaN') and Number('Infinity') are written null, as JSON.stringify writes them.
      JSON.stringify(Number(value));

/**
 * A text of a list (UTF-8 bytes) with its marked values written as JavaScript writes them.
 * The text is rewritten in place, the bytes after each value moved up to it: the buffer is
 * this call's own (raw rows are views of what the socket read), and a new one per text would
 * double the bytes the service allocates for a list. Most marked values are custom-field
 * objects that only lose their spaces (compactInto); the others go through JavaScript. One
 * that comes out longer than it was with its marks (1e-05 as 0.00001) could overrun the bytes
 * not yet read: from there on, pieces are copied.
 */
export function rewriteMarked(text: Buffer): Buffer {
  let mark = text.indexOf(MARK);
  if (mark === -1) return text;
  let written = 0; // text[0, written) is final
  let from = 0; // text[from, …) is still to read
  while (mark !== -1) {
    const end = text.indexOf(MARK, mark + 1);
    text.copy(text, written, from, mark);
    written += mark - from;
    if (isCompactable(text, mark + 1, end)) {
      written = compactInto(text, mark + 1, end, written);
    } else {
      const value = rewritten(text.toString('utf8', mark + 1, end));
      const length = Buffer.byteLength(value);
      if (written + length > end + 1) return grownPart(text, written, mark);
      text.write(value, written, 'utf8');
      written += length;
    }
    from = end + 1;
    mark = text.indexOf(MARK, from);
  }
  text.copy(text, written, from);
  return text.subarray(0, written + text.length - from);
}

/** rewriteMarked once a value outgrows its place: text[0, written) is final, text[from, …) unread. */
function grownPart(text: Buffer, written: number, from: number): Buffer {
  const pieces = [text.subarray(0, written)];
  let mark = text.indexOf(MARK, from);
  while (mark !== -1) {
    const end = text.indexOf(MARK, mark + 1);
    pieces.push(text.subarray(from, mark), Buffer.from(rewritten(text.toString('utf8', mark + 1, end))));
    from = end + 1;
    mark = text.indexOf(MARK, from);
  }
  pieces.push(text.subarray(from));
  return Buffer.concat(pieces);
}
