// npm run bench:hours: the opening status of 10,000 locations (src/lib/hours/hours.status.ts)
// in Node's V8, as the widget computes it for its list: the first time (each zone's clock read
// through Intl), again at the same instant, and a minute later, as a list redrawn each minute
// does; with the locations in one zone, in 40 and in every zone the runtime knows. Then the bytes the status and its text (src/widget/hours.text.ts) take in a
// minified bundle of their own, raw and gzip'd (inside widget.js, whose gzip already holds
// much of their vocabulary, they add a little less). BENCH_LOCATIONS changes the count.
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Interval, OpeningSchedule, SpecialDay, WeeklyHours } from '../src/lib/hours/hours.model.ts';
import { openingStatus } from '../src/lib/hours/hours.status.ts';
import { projectRoot } from '../src/lib/project-root.ts';

const LOCATIONS = Number(process.env.BENCH_LOCATIONS ?? 10_000);
const RUNS = 21;
const MINUTE = 60_000;

const SOME_ZONES = [
  'America/Los_Angeles',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Sao_Paulo',
  'America/Santiago',
  'America/Mexico_City',
  'America/St_Johns',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Paris',
  'Europe/Madrid',
  'Europe/Rome',
  'Europe/Dublin',
  'Europe/Moscow',
  'Europe/Istanbul',
  'Africa/Cairo',
  'Africa/Casablanca',
  'Africa/Johannesburg',
  'Asia/Dubai',
  'Asia/Tehran',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Bangkok',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Asia/Seoul',
  'Asia/Singapore',
  'Australia/Sydney',
  'Australia/Adelaide',
  'Australia/Perth',
  'Australia/Lord_Howe',
  'Pacific/Auckland',
  'Pacific/Chatham',
  'Pacific/Honolulu',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Pacific/Apia',
  'Atlantic/Azores',
  'UTC',
];

const SHOP: Interval[] = ['09:00-18:00'];
const TEMPLATES: WeeklyHours[] = [
  { mon: SHOP, tue: SHOP, wed: SHOP, thu: SHOP, fri: SHOP, sat: ['10:00-16:00'], sun: [] },
  {
    mon: ['08:00-12:30', '14:00-19:00'],
    tue: ['08:00-12:30', '14:00-19:00'],
    wed: ['08:00-12:30'],
    thu: SHOP,
    fri: SHOP,
    sat: SHOP,
  },
  {
    mon: [],
    tue: ['17:00-01:00'],
    wed: ['17:00-01:00'],
    thu: ['17:00-02:00'],
    fri: ['17:00-03:00'],
    sat: ['15:00-03:00'],
    sun: ['15:00-23:00'],
  },
  Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, ['00:00-24:00']])),
  {
    mon: ['07:00-22:00'],
    tue: ['07:00-22:00'],
    wed: ['07:00-22:00'],
    thu: ['07:00-22:00'],
    fri: ['07:00-23:00'],
    sat: ['08:00-23:00'],
    sun: ['09:00-20:00'],
  },
];
const HOLIDAYS: SpecialDay[] = [
  ['2025-06-09', [], 'Whit Monday'],
  ['2025-06-12', ['09:00-14:00'], 'Stocktaking'],
];

function locations(count: number, zones: readonly string[]): OpeningSchedule[] {
  return Array.from({ length: count }, (_, index) => ({
    time_zone: zones[index % zones.length]!,
    hours: TEMPLATES[index % TEMPLATES.length]!,
    special_days: index % 3 === 0 ? HOLIDAYS : undefined,
    temporarily_closed: index % 50 === 0,
    reopens_on: index % 100 === 0 ? '2025-06-20' : null,
  }));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function timeAll(schedules: OpeningSchedule[], now: number): number {
  const start = performance.now();
  let open = 0;
  for (const schedule of schedules) if (openingStatus(schedule, now).state === 'open') open++;
  const elapsed = performance.now() - start;
  if (open === 0) throw new Error('no location open: the bench measures nothing');
  return elapsed;
}

export interface HoursBenchFigures {
  locations: number;
  zones: number;
  /** The first statuses in the process: every zone's clock read. */
  firstMs: number;
  /** Again at the same instant (median). */
  sameInstantMs: number;
  /** A minute later each time (median), as a list redrawn every minute. */
  nextMinuteMs: number;
}

/** Times `count` statuses over `zones`; call it first in a process for a true first figure. */
export function measureOpeningStatuses(
  count: number,
  zones: readonly string[],
  now: number,
): HoursBenchFigures {
  const schedules = locations(count, zones);
  const firstMs = timeAll(schedules, now);
  const same = Array.from({ length: RUNS }, () => timeAll(schedules, now));
  const next = Array.from({ length: RUNS }, (_, run) => timeAll(schedules, now + (run + 1) * MINUTE));
  return {
    locations: count,
    zones: zones.length,
    firstMs,
    sameInstantMs: median(same),
    nextMinuteMs: median(next),
  };
}

export interface HoursBundleBytes {
  minified: number;
  gzip: number;
}

/** Minified (as scripts/build-widget.ts builds widget.js) and gzip'd (level 9) bytes of the given exports. */
export async function measureHoursBundle(
  exports: string,
): Promise<{ code: string; bytes: HoursBundleBytes }> {
  const result = await build({
    stdin: { contents: exports, resolveDir: projectRoot, loader: 'ts' },
    bundle: true,
    minify: true,
    // An ES module: its exports cost a few bytes, where an IIFE's global would cost a wrapper
    // that widget.js, which exports nothing, does not have.
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  return { code, bytes: { minified: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length } };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  // Instants months apart, so that each run reads its clocks afresh: one zone (the first
  // statuses of the process also pay for the engine's first Intl.DateTimeFormat), 40 zones on
  // the night Europe moves its clocks forward, and every zone on the night it moves them back.
  for (const [zones, now, when] of [
    [['Europe/Berlin'], Date.parse('2025-06-10T10:00:00Z'), 'on 10 June 2025'],
    [SOME_ZONES, Date.parse('2025-03-30T00:30:00Z'), 'on 30 March 2025'],
    [Intl.supportedValuesOf('timeZone'), Date.parse('2025-10-26T00:30:00Z'), 'on 26 October 2025'],
  ] as const) {
    const figures = measureOpeningStatuses(LOCATIONS, zones, now);
    console.log(
      `${figures.locations} statuses, ${figures.zones} zone(s), ${when}: first ${ms(figures.firstMs)}, ` +
        `same instant ${ms(figures.sameInstantMs)}, a minute later ${ms(figures.nextMinuteMs)} (median of ${RUNS})`,
    );
  }
  const status = await measureHoursBundle("export { openingStatus } from './src/lib/hours/hours.status.ts';");
  const withText = await measureHoursBundle(
    "export { openingStatus } from './src/lib/hours/hours.status.ts';\n" +
      "export { openingText } from './src/widget/hours.text.ts';",
  );
  const bytes = ({ minified, gzip }: HoursBundleBytes) => `${minified} B minified, ${gzip} B gzip`;
  console.log(`openingStatus with its zone clock: ${bytes(status.bytes)}`);
  console.log(`with openingText: ${bytes(withText.bytes)}`);
}
