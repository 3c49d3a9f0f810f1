// Slugs of tag names (docs/api.md, Tags), used by refinements and the widget filter.

/** "Drive-Thru & Café" -> "drive-thru-cafe". Never empty: a name with no letters or digits gives "tag". */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'tag' : slug;
}
