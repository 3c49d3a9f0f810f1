// JSON that a client or an upstream hands us, judged before anything walks it. Two rules that
// every path reading outside JSON shares (request bodies, the Paddle webhook, a model's answer):
// - depth: arrays and objects nest at most MAX_JSON_DEPTH levels, checked on the text before it
//   is parsed, because every later walk (secure-json-parse's prototype scan, the validator's,
//   JSON.stringify into jsonb) recurses and a few thousand levels exhaust the stack;
// - strings: PostgreSQL stores no NUL character in text or jsonb, and no unpaired UTF-16
//   surrogate in jsonb (a text column would silently get U+FFFD), so such strings are found
//   here, with their paths, before a query runs.
// Both are single passes without recursion, so any input of any depth is safe to hand them.

import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-bytes.ts';

/** The deepest nesting of arrays and objects accepted anywhere; real bodies use a handful. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text nests arrays and objects more than `limit` levels deep (`[]` is one level).
 * Brackets inside strings do not count. Not a validator: malformed text gives some answer and
 * is left to the parser to refuse.
 */
export function jsonNestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

export type StringProblem = 'nul' | 'lone_surrogate';

export interface StringFault {
  /** Where the string is; for an object key, the path of the object holding it. */
  path: (string | number)[];
  problem: StringProblem;
}

const NUL = '\u0000';
/** With the `u` flag a surrogate pair is one code point, so this matches only an unpaired half. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** The problems of one string that PostgreSQL could not store. */
export function stringProblems(value: string): StringProblem[] {
  const problems: StringProblem[] = [];
  if (value.includes(NUL)) problems.push('nul');
  if (LONE_SURROGATE.test(value)) problems.push('lone_surrogate');
  return problems;
}

/** A path as a chain of links to the parent, so a step deeper costs O(1), not a copy. */
interface PathLink {
  parent: PathLink | null;
  key: string | number;
}

function pathOf(link: PathLink | null): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at = link; at; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Every string of a parsed value, object keys included, that PostgreSQL could not store, in
 * document order. A key's fault is reported on the object holding it (a path never carries the
 * offending text).
 */
export function unstorableStrings(value: unknown): StringFault[] {
  const faults: StringFault[] = [];
  const stack: [unknown, PathLink | null][] = [[value, null]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, link] = next;
    if (typeof item === 'string') {
      for (const problem of stringProblems(item)) faults.push({ path: pathOf(link), problem });
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--) {
        stack.push([item[index], { parent: link, key: index }]);
      }
    } else if (item !== null && typeof item === 'object' && !ArrayBuffer.isView(item)) {
      const entries = Object.entries(item);
      const keyProblems = new Set(entries.flatMap(([key]) => stringProblems(key)));
      for (const problem of keyProblems) faults.push({ path: pathOf(link), problem });
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index]!;
        if (stringProblems(key).length === 0) stack.push([child, { parent: link, key }]);
      }
    }
  }
  return faults;
}
