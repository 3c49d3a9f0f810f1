// The widget's origin rules (decisions §6), shared by every public finder route (the payload,
// analytics): a finder's `authorized_urls` lists origins (`https://shop.example`) or bare hosts
// (`shop.example`, any scheme); a host may start with `*.`, which admits subdomains at any
// depth but not the bare domain. An empty list allows every origin. With a list, a request
// whose Origin (or, without it, Referer) is missing or not listed is refused.
import { createForbiddenError } from './errors.ts';

/** One entry of authorized_urls, parsed once. */
export type OriginRule =
  | { kind: 'origin'; origin: string }
  | { kind: 'host'; host: string }
  | { kind: 'subdomains'; suffix: string };

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function isHostName(host: string): boolean {
  if (host === 'localhost') return true;
  const [name, port, ...rest] = host.split(':');
  if (rest.length > 0 || name === undefined) return false;
  if (port !== undefined && !/^\d{1,5}$/.test(port)) return false;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return true;
  return name.split('.').every((label) => HOST_LABEL.test(label));
}

/**
 * Parses one authorized_urls entry; undefined when it is neither an http(s) origin nor a host.
 * Origins lose any path, so `https://shop.example/` and `https://shop.example` are the same.
 */
export function parseOriginRule(entry: string): OriginRule | undefined {
  const value = entry.trim().toLowerCase();
  if (value === '') return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.username || url.password || url.search || url.hash) return undefined;
    if (url.pathname !== '/' && url.pathname !== '') return undefined;
    return { kind: 'origin', origin: url.origin };
  }
  if (value.startsWith('*.')) {
    const suffix = value.slice(2);
    return isHostName(suffix) && suffix.includes('.') ? { kind: 'subdomains', suffix } : undefined;
  }
  return isHostName(value) ? { kind: 'host', host: value } : undefined;
}

/** An entry in its stored form: `https://shop.example`, `shop.example` or `*.shop.example`. */
export function formatOriginRule(rule: OriginRule): string {
  if (rule.kind === 'origin') return rule.origin;
  if (rule.kind === 'host') return rule.host;
  return `*.${rule.suffix}`;
}

/** The origin a browser request comes from: Origin, else the origin of Referer. */
export function requestOrigin(headers: { origin?: string; referer?: string }): string | undefined {
  for (const candidate of [headers.origin, headers.referer]) {
    if (!candidate || candidate === 'null') continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    } catch {
      // An unparsable header names no origin; the next one may.
    }
  }
  return undefined;
}

/** Whether a request from `origin` may use a finder with these authorized_urls. */
export function isOriginAllowed(rules: readonly OriginRule[], origin: string | undefined): boolean {
  if (rules.length === 0) return true;
  if (origin === undefined) return false;
  const url = new URL(origin);
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  return rules.some((rule) => {
    if (rule.kind === 'origin') return rule.origin === url.origin;
    // A bare host admits any scheme; with a port it names that port only.
    if (rule.kind === 'host') return rule.host.includes(':') ? rule.host === host : rule.host === hostname;
    return (rule.suffix.includes(':') ? host : hostname).endsWith(`.${rule.suffix}`);
  });
}

/**
 * Whether a request from `origin` may use a finder whose stored authorized_urls are these.
 * Fails closed: a non-empty list none of whose entries parses restricts to nothing rather
 * than falling back to "empty list, every origin".
 */
export function finderAllowsOrigin(authorizedUrls: readonly string[], origin: string | undefined): boolean {
  if (authorizedUrls.length === 0) return true;
  const rules = authorizedUrls.map(parseOriginRule).filter((rule) => rule !== undefined);
  if (rules.length === 0) return false;
  return isOriginAllowed(rules, origin);
}

/** 403 of every public finder route whose caller's origin is not listed (decisions §6). */
export const createOriginNotAllowedError = () =>
  createForbiddenError('This website is not allowed to use this finder.');
