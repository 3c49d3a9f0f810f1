// Applying staged rows (docs/api.md, CSV import), for the CSV import and the AI import alike:
// match them against the workspace, settle each matched row's opening by the API's rules over
// the location it updates (rows those rules refuse are dropped and reported), then write
// everything with the repository's set-based statements. A fixed number of statements, none
// per row; the settle reads the matched rows in batches and writes its answer by COPY.
import type { Transaction } from '../../../db/client.ts';
import { type SettleRow, settleOpening, settlesOpening } from './locations.import.opening.ts';
import type { LocationImportRepository } from './locations.import.repository.ts';
import type { Layout } from './locations.import.rows.ts';
import { SettledLines, type StagedValues } from './locations.import.shared.ts';

export interface ApplyOptions {
  workspaceId: number;
  layout: Layout;
  /** Whether the file may repeat a key (see looseKey); saves a pass over the rows when not. */
  mayRepeat: boolean;
  /** What the staged rows share (their tags, hours and zones), staged here before the match. */
  shared: StagedValues;
  /** Checked between statements: an import given up (client gone, time budget spent) stops there. */
  signal?: AbortSignal;
}

/** A staged row the rules between its fields refuse once its location is known; `i` as staged. */
export interface RefusedRow {
  i: number;
  field: string;
  message: string;
}

export interface Applied {
  created: number;
  updated: number;
  /** Problems of the rows dropped by the settle, in row order; those rows wrote nothing. */
  refused: RefusedRow[];
}

export async function applyStaged(
  tx: Transaction,
  imports: LocationImportRepository,
  options: ApplyOptions,
): Promise<Applied> {
  const { workspaceId, layout, mayRepeat, shared, signal } = options;
  await imports.stageShared(tx, shared);
  await imports.matchStaged(tx, workspaceId, mayRepeat, signal);
  const settles = settlesOpening(layout.opening);
  const refused: RefusedRow[] = [];
  if (settles) {
    const settled = new SettledLines();
    const dropped: number[] = [];
    /**
     * Settles the rows reading `row`'s values: their opening, or their problems (then they are
     * dropped); whether it was accepted.
     */
    const settle = (row: SettleRow, rows: readonly number[]) => {
      const opening = settleOpening(row, layout.opening, (id) => shared.zonesOf(id));
      if ('errors' in opening) {
        for (const i of rows) {
          dropped.push(i);
          for (const error of opening.errors) refused.push({ i, ...error });
        }
        return false;
      }
      settled.add(opening, rows);
      return true;
    };
    for await (const groups of imports.settleGroups(tx))
      for (const group of groups) settle(group, group.rows);
    signal?.throwIfAborted();
    // A refused row of a repeated key leaves the key to its previous row, and so on: the key's
    // earlier rows are settled latest first, in one pass over all such keys, until one is
    // accepted; it takes the refused winner's place (and location).
    if (mayRepeat && dropped.length > 0) {
      const moves: [from: number, to: number][] = [];
      let winner: number | undefined;
      let decided = false;
      for await (const rows of imports.earlierRows(tx, [...dropped])) {
        for (const row of rows) {
          if (row.winner !== winner) {
            winner = row.winner;
            decided = false;
          }
          if (decided) continue;
          if (settle(row, [row.i])) {
            moves.push([row.winner, row.i]);
            decided = true;
          }
        }
      }
      signal?.throwIfAborted();
      await imports.moveTargets(tx, moves);
    }
    if (dropped.length > 0) await imports.dropStaged(tx, dropped);
    await imports.stageOpening(tx, settled);
  }
  const counts = await imports.writeStaged(tx, {
    workspaceId,
    layout,
    tagNames: [...shared.tags.names.values()],
    settled: settles,
    signal,
  });
  refused.sort((a, b) => a.i - b.i);
  return { ...counts, refused };
}
