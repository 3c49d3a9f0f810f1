// The opening status as a line of text (src/widget/hours.text.ts): the location's own
// wall-clock times in the visitor's language, minutes counted in the last hour, weekdays for
// other days and the date a week ahead.
import { describe, expect, it } from 'vitest';
import type { OpeningStatus } from '../../src/lib/hours/hours.status.ts';
import { openingText } from '../../src/widget/hours.text.ts';
import { createTranslator } from '../../src/widget/i18n.ts';

const text = (
  status: OpeningStatus,
  at: string,
  language: 'en' | 'de' | 'fr',
  timeZone: string | null = 'Europe/Berlin',
  locale: string = language,
  local = false,
) => openingText(status, timeZone, Date.parse(at), { locale, t: createTranslator(language) }, local);
const open = (closes: string | null): OpeningStatus => ({
  state: 'open',
  closes: closes === null ? null : Date.parse(closes),
  label: null,
});
const closed = (opens: string | null): OpeningStatus => ({
  state: 'closed',
  opens: opens === null ? null : Date.parse(opens),
  label: null,
});

describe('openingText', () => {
  it('says when an open location closes, in its own zone and the visitor’s language', () => {
    const status = open('2025-06-10T18:00+02:00');
    expect(text(status, '2025-06-10T10:00+02:00', 'en')).toBe('Open now · closes 6:00 PM');
    expect(text(status, '2025-06-10T10:00+02:00', 'en', 'Europe/Berlin', 'en-GB')).toBe(
      'Open now · closes 18:00',
    );
    expect(text(status, '2025-06-10T10:00+02:00', 'de')).toBe('Geöffnet · schließt um 18:00');
    expect(text(status, '2025-06-10T10:00+02:00', 'fr')).toBe('Ouvert · ferme à 18:00');
    // The same closing read in Los Angeles' zone is 09:00 there.
    expect(text(status, '2025-06-10T01:00-07:00', 'de', 'America/Los_Angeles')).toBe(
      'Geöffnet · schließt um 09:00',
    );
  });

  it('counts the minutes in the last hour, rounding up', () => {
    const status = open('2025-06-10T18:00+02:00');
    expect(text(status, '2025-06-10T17:35+02:00', 'en')).toBe('Closes in 25 min');
    expect(text(status, '2025-06-10T17:59:30+02:00', 'de')).toBe('Schließt in 1 Min.');
    expect(text(status, '2025-06-10T17:00:30+02:00', 'fr')).toBe('Ferme dans 60 min');
    expect(text(status, '2025-06-10T17:00+02:00', 'en')).toBe('Open now · closes 6:00 PM');
  });

  it('names the day of a closing after midnight, and of an opening on another day', () => {
    expect(
      text(open('2025-06-14T02:00+02:00'), '2025-06-13T23:00+02:00', 'en', 'Europe/Paris', 'en-GB'),
    ).toBe('Open now · closes Sat 02:00');
    expect(text(closed('2025-06-16T09:00+02:00'), '2025-06-14T19:00+02:00', 'de')).toBe(
      'Geschlossen · öffnet Mo um 09:00',
    );
    expect(text(closed('2025-06-14T09:00+02:00'), '2025-06-14T07:00+02:00', 'fr')).toBe(
      'Fermé · ouvre à 09:00',
    );
  });

  it('adds the date to an opening a week ahead, whose weekday is today’s', () => {
    expect(text(closed('2025-06-20T19:00+02:00'), '2025-06-13T23:30+02:00', 'en')).toBe(
      'Closed · opens Fri, Jun 20 7:00 PM',
    );
  });

  it('counts days in the location’s zone: 23:00 Monday in Pago Pago to 09:00 Tuesday is another day', () => {
    expect(text(closed('2025-06-10T09:00-11:00'), '2025-06-09T23:00-11:00', 'en', 'Pacific/Pago_Pago')).toBe(
      'Closed · opens Tue 9:00 AM',
    );
  });

  it('says open or closed alone when the next change is not known, and nothing when the hours are unknown', () => {
    expect(text(open(null), '2025-06-10T10:00+02:00', 'en')).toBe('Open now');
    expect(text(closed(null), '2025-06-10T10:00+02:00', 'fr')).toBe('Fermé');
    expect(text({ state: 'unknown' }, '2025-06-10T10:00+02:00', 'en')).toBeNull();
  });

  it('says a temporary closure, with the reopening date when known', () => {
    const closure = (reopensOn: string | null): OpeningStatus => ({
      state: 'temporarily_closed',
      reopens_on: reopensOn,
    });
    expect(text(closure(null), '2025-06-10T10:00+02:00', 'en', null)).toBe('Temporarily closed');
    expect(text(closure('2025-07-01'), '2025-06-10T10:00+02:00', 'en')).toBe(
      'Temporarily closed · reopens Jul 1',
    );
    expect(text(closure('2026-03-01'), '2025-06-10T10:00+02:00', 'en', 'Europe/Berlin', 'en-GB')).toBe(
      'Temporarily closed · reopens 1 Mar',
    );
    expect(text(closure('2025-07-01'), '2025-06-10T10:00+02:00', 'de')).toBe(
      'Vorübergehend geschlossen · öffnet wieder am 1. Juli',
    );
    expect(text(closure('2025-07-01'), '2025-06-10T10:00+02:00', 'fr')).toBe(
      'Fermé temporairement · réouverture le 1 juil.',
    );
  });

  it('says "local time" after a time when told the visitor’s clock reads another offset', () => {
    const status = closed('2025-06-16T09:00+02:00');
    expect(text(status, '2025-06-14T19:00+02:00', 'en', 'Europe/Berlin', 'en-GB', true)).toBe(
      'Closed · opens Mon 09:00 (local time)',
    );
    expect(text(status, '2025-06-14T19:00+02:00', 'de', 'Europe/Berlin', 'de', true)).toBe(
      'Geschlossen · öffnet Mo um 09:00 (Ortszeit)',
    );
    expect(
      text(open('2025-06-14T18:00+02:00'), '2025-06-14T10:00+02:00', 'fr', 'Europe/Berlin', 'fr', true),
    ).toBe('Ouvert · ferme à 18:00 (heure locale)');
    // No time, nothing to say it of.
    expect(
      text(open('2025-06-14T18:00+02:00'), '2025-06-14T17:35+02:00', 'en', 'Europe/Berlin', 'en', true),
    ).toBe('Closes in 25 min');
  });
});
