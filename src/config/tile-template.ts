// A map tile template (DASHBOARD_TILE_URL) as the dashboard's maps and its page policy use it: an http(s) URL holding
// {z}, {x} and {y}, whose host is a plain name (the policy admits exactly that origin, so a `{s}`
// subdomain placeholder, which no policy can name, is refused).
export const OSM_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** What is wrong with `template`, or undefined when the dashboard can use it. */
export function tileTemplateProblem(template: string): string | undefined {
  let url: URL;
  try {
    url = new URL(template);
  } catch {
    return 'must be a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  if (!/^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname))
    return 'must name its host plainly (no {s} or other placeholder in the host)';
  if (!['{z}', '{x}', '{y}'].every((part) => template.includes(part))) return 'must hold {z}, {x} and {y}';
  return undefined;
}
