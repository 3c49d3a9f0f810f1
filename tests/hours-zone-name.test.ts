// readTimeZone (src/lib/hours/hours.zone-name.ts): every name the runtime knows comes back in
// IANA's spelling whatever the case it was sent in, links as the link (the runtime itself would
// answer `us/eastern` as America/New_York); names that are not IANA names are refused.
import countriesAndTimezones from 'countries-and-timezones';
import { describe, expect, it } from 'vitest';
import { readTimeZone } from '../src/lib/hours/hours.zone-name.ts';

const resolved = (name: string) =>
  new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;

describe('readTimeZone', () => {
  it.each([
    ['europe/berlin', 'Europe/Berlin'],
    ['us/eastern', 'US/Eastern'],
    ['US/EASTERN', 'US/Eastern'],
    ['us/pacific', 'US/Pacific'],
    ['asia/calcutta', 'Asia/Calcutta'],
    ['asia/kolkata', 'Asia/Kolkata'],
    ['europe/kiev', 'Europe/Kiev'],
    ['EUROPE/KYIV', 'Europe/Kyiv'],
    ['america/buenos_aires', 'America/Buenos_Aires'],
    ['america/argentina/buenos_aires', 'America/Argentina/Buenos_Aires'],
    ['america/godthab', 'America/Godthab'],
    ['gb', 'GB'],
    ['etc/utc', 'Etc/UTC'],
    ['utc', 'UTC'],
    ['etc/gmt+5', 'Etc/GMT+5'],
  ])('reads %s as %s', (name, spelling) => {
    expect(readTimeZone(name)).toBe(spelling);
  });

  it('answers each tzdb name the runtime knows as itself, from lower and upper case, naming the same zone', () => {
    const names = Object.keys(countriesAndTimezones.getAllTimezones({ deprecated: true }));
    const wrong: string[] = [];
    let links = 0;
    for (const name of names) {
      let known: string;
      try {
        known = resolved(name);
      } catch {
        expect(readTimeZone(name)).toBeUndefined();
        continue;
      }
      if (known !== name) links += 1;
      for (const sent of [name, name.toLowerCase(), name.toUpperCase()]) {
        const read = readTimeZone(sent);
        if (read !== name || resolved(read) !== known) wrong.push(`${sent} -> ${read}`);
      }
    }
    expect(wrong).toEqual([]);
    // The runtime answers these by another name: the case the test is about.
    expect(links).toBeGreaterThan(100);
  });

  it.each(['PST', 'IST', 'SystemV/AST4', 'Mars/Olympus', 'Factory', '', ' Europe/Berlin', 'Europe/Berlin/'])(
    'refuses %j: not an IANA name the runtime knows',
    (name) => {
      expect(readTimeZone(name)).toBeUndefined();
    },
  );
});
