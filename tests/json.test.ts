// The two rules src/lib/json.ts gives every reader of outside JSON: how deep the text nests
// (counted on the text, strings and escapes skipped, at any depth without recursion) and which
// strings PostgreSQL could not store (NUL, unpaired UTF-16 surrogates), keys included.
import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH, stringProblems, unstorableStrings } from '../src/lib/json.ts';

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

describe('jsonNestsDeeperThan', () => {
  it('accepts 32 levels and refuses 33, of arrays and of objects', () => {
    expect(MAX_JSON_DEPTH).toBe(32);
    for (const nest of [arrays, objects]) {
      expect(jsonNestsDeeperThan(nest(32))).toBe(false);
      expect(jsonNestsDeeperThan(nest(33))).toBe(true);
      expect(JSON.parse(nest(32))).toBeDefined();
    }
  });

  it('counts depth, not the number of containers', () => {
    const wide = `[${Array.from({ length: 10_000 }, () => '{"a":[1,{}]}').join(',')}]`;
    expect(jsonNestsDeeperThan(wide)).toBe(false);
    expect(jsonNestsDeeperThan('1')).toBe(false);
    expect(jsonNestsDeeperThan('"[[[["')).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    const text = `{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}","b":[${'"\\\\"'}]}`;
    expect(JSON.parse(text)).toBeDefined();
    expect(jsonNestsDeeperThan(text, 2)).toBe(false);
    expect(jsonNestsDeeperThan(text, 1)).toBe(true);
  });

  it('answers for 100,000 levels at once, without recursion', () => {
    expect(jsonNestsDeeperThan(arrays(100_000))).toBe(true);
    expect(jsonNestsDeeperThan(`{"a":${'['.repeat(1_000_000)}`)).toBe(true);
  });
});

describe('unstorableStrings', () => {
  it('finds NUL and unpaired surrogates, high and low, but not a pair', () => {
    expect(stringProblems('a\u0000b')).toEqual(['nul']);
    expect(stringProblems('\ud800')).toEqual(['lone_surrogate']);
    expect(stringProblems('x\udc00')).toEqual(['lone_surrogate']);
    expect(stringProblems('\udc00\ud800')).toEqual(['lone_surrogate']);
    expect(stringProblems('\ud83d\ude00 fine')).toEqual([]);
    expect(stringProblems('\u0000\ud800')).toEqual(['nul', 'lone_surrogate']);
  });

  it('gives each fault its path in document order; a key is reported on its object', () => {
    const value = {
      name: 'ok',
      tags: ['fine', '\ud800'],
      custom_fields: { note: 'a\u0000b', '\udc00': 'value', nested: [{ deep: '\udfff' }] },
    };
    expect(unstorableStrings(value)).toEqual([
      { path: ['tags', 1], problem: 'lone_surrogate' },
      { path: ['custom_fields'], problem: 'lone_surrogate' },
      { path: ['custom_fields', 'note'], problem: 'nul' },
      { path: ['custom_fields', 'nested', 0, 'deep'], problem: 'lone_surrogate' },
    ]);
    expect(unstorableStrings({ a: 1, b: [true, null, 'ok'] })).toEqual([]);
  });

  it('walks 100,000 levels without recursion', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}"\\ud800"${']'.repeat(100_000)}`);
    const [fault] = unstorableStrings(deep);
    expect(fault?.problem).toBe('lone_surrogate');
    expect(fault?.path).toHaveLength(100_000);
  });
});
