// How a finder's rule compares a location's `country` (docs/api.md, Finders): a location's
// country is free text (a code, an English or a German name, as people and imports write it),
// a rule's countries are ISO 3166-1 alpha-2 codes. A location matches a code when its country,
// trimmed and case-folded, is that code or one of the country's English or German names, the
// spellings the time zone check recognises too (locations.time-zone.ts). The spellings are
// written with the rule (finders.rule_country_names), so the statement compares stored text;
// PostgreSQL's lower() folds both sides (the repository stores lower(spelling)), so they fold
// alike whatever the database's locale (under the C locale only ASCII letters fold).
import countries from 'i18n-iso-countries';

/** Every spelling of these codes a location's country may have, as written, once each. */
export function countryNames(codes: readonly string[]): string[] {
  const names = new Set<string>();
  for (const code of codes) {
    names.add(code);
    for (const language of ['en', 'de']) {
      for (const name of countries.getName(code, language, { select: 'all' }) ?? []) {
        names.add(name.trim());
      }
    }
  }
  return [...names].sort();
}
