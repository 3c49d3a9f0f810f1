// A finder's origin rules (docs/api.md, Finders and "Widget: settings keys and behaviour"), the
// one definition the service and the widget both apply: the public finder routes to a
// request's Origin (else Referer), the widget (bundled from this file by
// scripts/build-widget.ts) to the origin of the page embedding it. So this file imports
// nothing and uses nothing but what browsers and Node both have (URL, RegExp).
// `authorized_urls` lists origins (`https://shop.example`) or bare hosts (`shop.example`, any
// scheme); a host may start with `*.`, which admits subdomains at any depth but not the bare
// domain. An empty list allows every origin. With a list, a missing origin or one not listed
// is refused.

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

/**
 * The http(s) URL of an origin, or undefined for anything else: a browser's `"null"` (a
 * sandboxed frame, a file), another scheme, or text that is no URL. Such an origin names no
 * site, so a finder with a list refuses it, as it refuses a request without one.
 */
function webOrigin(origin: string | undefined): URL | undefined {
  if (origin === undefined) return undefined;
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a request from `origin` may use a finder with these authorized_urls. */
export function isOriginAllowed(rules: readonly OriginRule[], origin: string | undefined): boolean {
  if (rules.length === 0) return true;
  const url = webOrigin(origin);
  if (url === undefined) return false;
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
