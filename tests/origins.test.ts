// The widget's origin rules (docs/api.md, Finders) as a table: exact origins, bare hosts (any
// scheme), `*.` subdomains at any depth but not the bare domain, Origin before Referer, and refusal
// when a list exists and no origin is given.
import { describe, expect, it } from 'vitest';
import { finderAllowsOrigin } from '../src/lib/origin-rules.ts';
import { isOriginAllowed, type OriginRule, parseOriginRule, requestOrigin } from '../src/lib/origins.ts';

const rules = (...entries: string[]): OriginRule[] =>
  entries.map((entry) => {
    const rule = parseOriginRule(entry);
    if (!rule) throw new Error(`bad rule ${entry}`);
    return rule;
  });

describe('parseOriginRule', () => {
  it.each([
    ['https://Shop.Example', { kind: 'origin', origin: 'https://shop.example' }],
    ['https://shop.example/', { kind: 'origin', origin: 'https://shop.example' }],
    ['http://localhost:8080', { kind: 'origin', origin: 'http://localhost:8080' }],
    ['shop.example', { kind: 'host', host: 'shop.example' }],
    ['shop.example:8443', { kind: 'host', host: 'shop.example:8443' }],
    ['*.shop.example', { kind: 'subdomains', suffix: 'shop.example' }],
  ])('reads %s', (entry, rule) => {
    expect(parseOriginRule(entry)).toEqual(rule);
  });

  it.each([
    '',
    'ftp://shop.example',
    'https://shop.example/path',
    'https://shop.example?x=1',
    'https://user@shop.example',
    'javascript:alert(1)',
    '*.com',
    '*.',
    'shop..example',
    '-shop.example',
    'shop example',
    'shop.example:port',
  ])('refuses %j', (entry) => {
    expect(parseOriginRule(entry)).toBeUndefined();
  });
});

describe('isOriginAllowed', () => {
  it('allows every origin, and none at all, when the list is empty', () => {
    expect(isOriginAllowed([], 'https://anything.example')).toBe(true);
    expect(isOriginAllowed([], undefined)).toBe(true);
  });

  it.each([
    // [rules, origin, allowed]
    [['https://shop.example'], 'https://shop.example', true],
    [['https://shop.example'], 'http://shop.example', false],
    [['https://shop.example'], 'https://shop.example:8443', false],
    [['https://shop.example'], 'https://www.shop.example', false],
    [['shop.example'], 'http://shop.example', true],
    [['shop.example'], 'https://shop.example:8443', true],
    [['shop.example'], 'https://www.shop.example', false],
    [['shop.example:8443'], 'https://shop.example:8443', true],
    [['shop.example:8443'], 'https://shop.example', false],
    [['*.shop.example'], 'https://www.shop.example', true],
    [['*.shop.example'], 'https://a.b.shop.example', true],
    [['*.shop.example'], 'https://shop.example', false],
    [['*.shop.example'], 'https://evilshop.example', false],
    [['*.shop.example'], 'https://shop.example.evil.test', false],
    [['https://a.example', 'b.example'], 'https://b.example', true],
    [['https://a.example'], undefined, false],
  ] as const)('%j admits %s: %s', (entries, origin, allowed) => {
    expect(isOriginAllowed(rules(...entries), origin)).toBe(allowed);
  });
});

describe('requestOrigin', () => {
  it('prefers Origin, falls back to the origin of Referer, ignores "null" and junk', () => {
    expect(requestOrigin({ origin: 'https://a.example', referer: 'https://b.example/x' })).toBe(
      'https://a.example',
    );
    expect(requestOrigin({ referer: 'https://b.example/page?q=1' })).toBe('https://b.example');
    expect(requestOrigin({ origin: 'null', referer: 'https://b.example/' })).toBe('https://b.example');
    expect(requestOrigin({ origin: 'not a url' })).toBeUndefined();
    expect(requestOrigin({ referer: 'file:///etc/passwd' })).toBeUndefined();
    expect(requestOrigin({})).toBeUndefined();
  });
});

// The widget applies finderAllowsOrigin to window.location.origin of the page embedding it,
// which may be "null" (a sandboxed frame, a file) or another scheme: such a page names no site.
describe('finderAllowsOrigin (the service and the widget alike)', () => {
  it.each([
    // [stored list, page origin, allowed]
    [[], 'null', true],
    [[], 'https://anything.example', true],
    [['https://shop.example'], 'https://shop.example', true],
    [['https://shop.example'], 'null', false],
    [['shop.example'], 'chrome-extension://abcdef', false],
    [['shop.example'], 'not a url', false],
    [['shop.example'], '', false],
    [['*.shop.example'], 'https://www.shop.example:8443', true],
    [['*.shop.example'], 'https://shop.example', false],
    // Fails closed: a list of which nothing parses admits no site, not every site.
    [['https://shop.example/path', 'ftp://shop.example'], 'https://shop.example', false],
    // An entry that does not parse is skipped, the others still apply.
    [['https://shop.example/path', 'shop.example'], 'https://shop.example', true],
  ] as const)('%j admits %j: %s', (urls, origin, allowed) => {
    expect(finderAllowsOrigin(urls, origin)).toBe(allowed);
  });
});
