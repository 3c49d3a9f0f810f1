// rewriteMarked (src/modules/locations/json/locations.json-walker.ts) on texts written here the way
// PostgreSQL writes a list's marked values: every result must be what JSON.stringify writes for
// the same value, whether the walker compacts the bytes in place or hands the value to
// JavaScript, and whether the rewritten text is shorter or longer than the marked one.
import { describe, expect, it } from 'vitest';
import { MARK, rewriteMarked } from '../src/modules/locations/json/locations.json-walker.ts';

const M = String.fromCharCode(MARK);
const marked = (value: string) => `${M}${value}${M}`;
const rewrite = (text: string) => rewriteMarked(Buffer.from(text)).toString('utf8');
/** What JavaScript writes for a marked value: an object, or a float8's text. */
const javascript = (value: string) =>
  value.startsWith('{') ? JSON.stringify(JSON.parse(value)) : JSON.stringify(Number(value));

/** jsonb's text of a value: a space after each `:` and `,`, keys by length then bytes. */
function jsonbText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort((a, b) => {
      const bytesA = Buffer.from(a);
      const bytesB = Buffer.from(b);
      return bytesA.length - bytesB.length || Buffer.compare(bytesA, bytesB);
    });
    return `{${keys.map((key) => `${JSON.stringify(key)}: ${jsonbText((value as Record<string, unknown>)[key])}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

describe('rewriteMarked', () => {
  it('answers a text without marks as it is, the same buffer', () => {
    const text = Buffer.from('{"id":1,"title":"Plain"},{"id":2}');
    expect(rewriteMarked(text)).toBe(text);
  });

  it('drops the spaces jsonb writes in flat objects, in the text’s own buffer', () => {
    const value = '{"a": 1, "b": "x, y: z", "c": null, "d": true, "e": false, "f": ["q", -2, null]}';
    const text = Buffer.from(`{"custom_fields":${marked(value)},"tail":"kept  as is"}`);
    const result = rewriteMarked(text);
    expect(result.toString()).toBe(`{"custom_fields":${javascript(value)},"tail":"kept  as is"}`);
    expect(result.buffer).toBe(text.buffer);
  });

  it('keeps what is inside strings: escaped quotes and backslashes, spaces, non-ASCII', () => {
    for (const value of [
      '{"k": "a \\"b\\": c, d\\\\"}',
      '{"k": "\\\\", "l": "\\"", "m": "  "}',
      '{"ünï": "✓ — 𝄞", "z": ["a b", "c\\nd"]}',
      '{"": ""}',
      '{}',
      '{"a": []}',
    ]) {
      expect(rewrite(marked(value)), value).toBe(javascript(value));
    }
  });

  it('hands JavaScript the objects it writes differently: integer keys, decimals, long integers, nesting', () => {
    for (const value of [
      '{"b": 1, "10": 2}',
      '{"7": true}',
      '{"a": 1.50}',
      '{"a": 100.00}',
      '{"a": 12345678901234567}',
      '{"m": {"b": 1, "a": [1.0, "x", null]}}',
      '{"a": [[1]]}',
    ]) {
      expect(rewrite(`[${marked(value)}]`), value).toBe(`[${javascript(value)}]`);
    }
  });

  it('writes floats as JavaScript does, NaN and infinities as null', () => {
    for (const value of [
      '1e-05',
      '-1e-07',
      '1e+15',
      '9.999999999999999e+22',
      'NaN',
      'Infinity',
      '-Infinity',
    ]) {
      expect(rewrite(`{"lat":${marked(value)}}`), value).toBe(`{"lat":${javascript(value)}}`);
    }
  });

  it('copies pieces once a value comes out longer than it was, the first one or a later one', () => {
    // 1e-06 (7 bytes marked) is 0.000001 (8 bytes) in JavaScript.
    const growsFirst = `{"lat":${marked('1e-06')},"lng":${marked('-1.5e-06')},"c":${marked('{"a": 1}')}}`;
    expect(rewrite(growsFirst)).toBe('{"lat":0.000001,"lng":-0.0000015,"c":{"a":1}}');
    // Bytes freed by a compacted object before it make room for a later value that grows.
    const freedFirst = `{"c":${marked('{"a": 1, "b": 2, "c": 3}')},"lat":${marked('1e-06')}}`;
    expect(rewrite(freedFirst)).toBe('{"c":{"a":1,"b":2,"c":3},"lat":0.000001}');
    const manyGrow = Array.from({ length: 50 }, (_, i) => `{"id":${i},"v":${marked('1e-06')}}`).join(',');
    expect(rewrite(manyGrow)).toBe(
      Array.from({ length: 50 }, (_, i) => `{"id":${i},"v":0.000001}`).join(','),
    );
  });

  it('agrees with JSON.stringify on many generated custom values', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
    const strings = ['', 'a', 'two words', 'q"uote', 'back\\slash', 'comma, colon: ', 'ünï ✓', 'tab\tnl\n'];
    const scalar = () =>
      pick<() => unknown>([
        () => pick(strings),
        () => Math.floor(random() * 2000) - 1000,
        () => Math.round(random() * 1e6) / 100,
        () => random() < 0.5,
        () => null,
        () => 2 ** 53 + Math.floor(random() * 100),
      ])();
    const value = (depth: number): unknown => {
      const roll = random();
      if (depth > 0 && roll < 0.15)
        return Array.from({ length: Math.floor(random() * 4) }, () => value(depth - 1));
      if (depth > 0 && roll < 0.2) return object(depth - 1);
      return scalar();
    };
    const object = (depth: number) =>
      Object.fromEntries(
        Array.from({ length: Math.floor(random() * 6) }, () => [
          pick([...strings, 'seats', 'kind', '7', '12', 'note']),
          value(depth),
        ]),
      );
    const values = Array.from({ length: 500 }, () => jsonbText(object(2)));
    const text = values.map((v, i) => `{"id":${i},"custom_fields":${marked(v)}}`).join(',');
    const expected = values.map((v, i) => `{"id":${i},"custom_fields":${javascript(v)}}`).join(',');
    expect(rewrite(text)).toBe(expected);
  });
});
