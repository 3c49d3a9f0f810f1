// Time zone names as the API keeps them (docs/api.md, "Opening hours"): an IANA name the
// runtime knows, in IANA's spelling. The runtime decides which names are known (Intl, the
// database the widget reads zones with), but it cannot spell a link: Intl.supportedValuesOf
// lists canonical zones only, and resolvedOptions answers a link by its target or by CLDR's
// older name (on Node 20, `us/eastern` gives America/New_York and `Asia/Kolkata` gives
// Asia/Calcutta). The spellings come from tzdb's names, links included, as countries-and-timezones
// ships them, and from the runtime's own list for zones newer than that package. Server-side
// only: the package's table is about 40 KB, which no browser bundle should carry.
import countriesAndTimezones from 'countries-and-timezones';

/** Every IANA spelling, by its lower case; made at the first read. */
let spellings: Map<string, string> | undefined;

function spellingOf(name: string): string | undefined {
  spellings ??= new Map(
    [
      ...Intl.supportedValuesOf('timeZone'),
      ...Object.keys(countriesAndTimezones.getAllTimezones({ deprecated: true })),
    ].map((spelling) => [spelling.toLowerCase(), spelling]),
  );
  return spellings.get(name.toLowerCase());
}

/**
 * Whether the runtime knows a spelling. Asking costs a formatter (over 100 µs), which an import
 * of many rows pays once per name; bounded by the names of `spellings`.
 */
const runtimeKnows = new Map<string, boolean>();

function knownToRuntime(spelling: string): boolean {
  let known = runtimeKnows.get(spelling);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: spelling });
      known = true;
    } catch {
      known = false;
    }
    runtimeKnows.set(spelling, known);
  }
  return known;
}

/**
 * The IANA spelling of a time zone name the runtime knows, or undefined when the name is not
 * an IANA name or the runtime does not know it. Case is corrected and a link stays the link:
 * `europe/berlin` is `Europe/Berlin`, `us/eastern` is `US/Eastern`, `asia/calcutta` is
 * `Asia/Calcutta`. Names only the runtime knows (ICU's `PST`, `IST`) are not IANA names.
 */
export function readTimeZone(name: string): string | undefined {
  const spelling = spellingOf(name);
  return spelling !== undefined && knownToRuntime(spelling) ? spelling : undefined;
}
