// The opening hours' texts, which i18n.ts merges into its catalogs: a module of their own, so
// that the bytes hours add to widget.js can be measured (scripts/build-widget.ts). A status
// line joins two with " · ": "Open now" and "closes {day}{time}".

export const hoursEn = {
  open: 'Open now',
  /** After "Open now · ": {day} is empty on the same day, else a weekday and a space. */
  closes: 'closes {day}{time}',
  closesIn: 'Closes in {count} min',
  closed: 'Closed',
  opens: 'opens {day}{time}',
  temporarilyClosed: 'Temporarily closed',
  reopens: 'reopens {date}',
  /** A time (or the week's heading) when the visitor's clock is at another offset. */
  local: '{time} (local time)',
  hours: 'Opening hours',
  unknown: 'Not known',
};

type HoursTexts = Partial<Record<keyof typeof hoursEn, string>>;

export const hoursDe: HoursTexts = {
  open: 'Geöffnet',
  closes: 'schließt {day}um {time}',
  closesIn: 'Schließt in {count} Min.',
  closed: 'Geschlossen',
  opens: 'öffnet {day}um {time}',
  temporarilyClosed: 'Vorübergehend geschlossen',
  reopens: 'öffnet wieder am {date}',
  local: '{time} (Ortszeit)',
  hours: 'Öffnungszeiten',
  unknown: 'Unbekannt',
};

export const hoursFr: HoursTexts = {
  open: 'Ouvert',
  closes: 'ferme {day}à {time}',
  closesIn: 'Ferme dans {count} min',
  closed: 'Fermé',
  opens: 'ouvre {day}à {time}',
  temporarilyClosed: 'Fermé temporairement',
  reopens: 'réouverture le {date}',
  local: '{time} (heure locale)',
  hours: 'Horaires',
  unknown: 'Non communiqué',
};
