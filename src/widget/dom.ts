// Building DOM without innerHTML: every text from a payload lands in text nodes, never markup.
type Attributes = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | null | undefined | false;

let idCounter = 0;
/** Ids unique on the page, for aria-controls, aria-activedescendant and label `for`. */
export const uniqueId = (prefix: string) => `lf-${prefix}-${++idCounter}`;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  children: Child[] = [],
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/**
 * Text from the payload, isolated (<bdi>): a Latin address, a phone number or "1.2 km" keeps
 * its own order inside a right-to-left layout instead of being reordered around it.
 */
export const isolated = (text: string) => h('bdi', {}, [text]);

/** Only http(s) links from the payload become hrefs: no javascript: or data: URLs. */
export function safeHttpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** `tel:` keeps digits, a leading plus and the separators dialers understand. */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+*#,;]/g, '')}`;
