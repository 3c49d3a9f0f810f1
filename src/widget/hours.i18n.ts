// The opening hours' texts, which i18n.ts merges into its catalogs: a module of their own, so
// that the bytes hours add to widget.js can be measured (scripts/build-widget.ts). A status
// line joins two with " · ": "Open now" and "closes {day}{time}".

export const hoursEn = {
  hoursOpen: 'Open now',
  /** After "Open now · ": {day} is empty on the same day, else a weekday and a space. */
  hoursCloses: 'closes {day}{time}',
  hoursClosesIn: 'Closes in {count} min',
  hoursClosed: 'Closed',
  hoursOpens: 'opens {day}{time}',
  hoursTemporarilyClosed: 'Temporarily closed',
  hoursReopens: 'reopens {date}',
  /** A time (or the week's heading) when the visitor's clock is at another offset. */
  hoursLocal: '{time} (local time)',
  hoursWeek: 'Opening hours',
  hoursUnknown: 'Not known',
};

type HoursTexts = Partial<Record<keyof typeof hoursEn, string>>;

export const hoursDe: HoursTexts = {
  hoursOpen: 'Geöffnet',
  hoursCloses: 'schließt {day}um {time}',
  hoursClosesIn: 'Schließt in {count} Min.',
  hoursClosed: 'Geschlossen',
  hoursOpens: 'öffnet {day}um {time}',
  hoursTemporarilyClosed: 'Vorübergehend geschlossen',
  hoursReopens: 'öffnet wieder am {date}',
  hoursLocal: '{time} (Ortszeit)',
  hoursWeek: 'Öffnungszeiten',
  hoursUnknown: 'Unbekannt',
};

export const hoursFr: HoursTexts = {
  hoursOpen: 'Ouvert',
  hoursCloses: 'ferme {day}à {time}',
  hoursClosesIn: 'Ferme dans {count} min',
  hoursClosed: 'Fermé',
  hoursOpens: 'ouvre {day}à {time}',
  hoursTemporarilyClosed: 'Fermé temporairement',
  hoursReopens: 'réouverture le {date}',
  hoursLocal: '{time} (heure locale)',
  hoursWeek: 'Horaires',
  hoursUnknown: 'Non communiqué',
};
