// Values the rows of an import share, staged once each and referenced by number (docs/api.md,
// CSV import). A chain's stores share a week of hours and a holiday list, a region's stores the
// zones at their points, and most settled openings are alike: COPY carries each such value once,
// and the staged rows stay narrow (temporary tables live in the small temp_buffers, so a wide
// staging table spills to disk and every statement reading it pays for the width).
import { copyField } from '../../../lib/pg-copy.ts';
import type { SettledOpening } from './locations.import.opening.ts';
import { TagCollector } from './locations.import.rows.ts';

/** What the rows of one import share: their tags, hours texts and zone lists. */
export class StagedValues {
  readonly tags = new TagCollector();
  /** Hours objects already numbered: the reading cache hands rows sharing a text one frozen object. */
  private readonly hoursIds = new WeakMap<object, number>();
  /** Hours numbered by their JSON text: equal hours read apart (the cache was emptied) share a number too. */
  private readonly hoursTexts = new Map<string, number>();
  private hoursCopy = '';
  private readonly zoneIds = new WeakMap<readonly string[], number>();
  private readonly zoneTexts = new Map<string, number>();
  private readonly zoneLists: (readonly string[])[] = [];

  /** The number of an hours value (a week, or special hours); its JSON text is staged once. */
  hoursId(value: object): number {
    let id = this.hoursIds.get(value);
    if (id !== undefined) return id;
    const text = JSON.stringify(value);
    id = this.hoursTexts.get(text);
    if (id === undefined) {
      id = this.hoursTexts.size + 1;
      this.hoursTexts.set(text, id);
      this.hoursCopy += `${id},${copyField(text)}\n`;
    }
    this.hoursIds.set(value, id);
    return id;
  }

  /** The COPY lines of `csv_import_hours`: each hours text once, with its number. */
  hoursLines(): string {
    return this.hoursCopy;
  }

  /** The number of a list of zones (zonesAt); kept here, read back by zonesOf. */
  zonesId(zones: readonly string[]): number {
    let id = this.zoneIds.get(zones);
    if (id !== undefined) return id;
    const text = zones.join('\n');
    id = this.zoneTexts.get(text);
    if (id === undefined) {
      this.zoneLists.push(zones);
      id = this.zoneLists.length;
      this.zoneTexts.set(text, id);
    }
    this.zoneIds.set(zones, id);
    return id;
  }

  zonesOf(id: number): readonly string[] {
    return this.zoneLists[id - 1]!;
  }
}

type Opening = Exclude<SettledOpening, { errors: unknown }>;

/** The settled openings of the matched rows: each distinct opening once, and each row's number of it. */
export class SettledLines {
  private readonly ids = new Map<string, number>();
  /** COPY lines of `csv_import_openings`: id, time_zone, time_zone_derived, time_zone_review, reopens_on. */
  openings = '';
  /** COPY lines of `csv_import_opening`: the row (i) and its opening's id. */
  rows = '';

  /** The opening the rows `rows` leave. */
  add(settled: Opening, rows: readonly number[]) {
    const line = [
      copyField(settled.timeZone),
      String(settled.timeZoneDerived),
      copyField(settled.timeZoneReview),
      copyField(settled.reopensOn),
    ].join(',');
    let id = this.ids.get(line);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(line, id);
      this.openings += `${id},${line}\n`;
    }
    for (const i of rows) this.rows += `${i},${id}\n`;
  }
}
