// Applying staged rows (docs/api.md, CSV import), for the CSV import and the AI import alike:
// match them against the workspace, settle each matched row's opening by the API's rules over
// the location it updates (rows those rules refuse are dropped and reported), then write
// everything with the repository's set-based statements. A fixed number of statements, none
// per row; the settle reads the matched rows in batches and writes its answer with one COPY.
import type { Transaction } from '../../../db/client.ts';
import { settleOpening, settlesOpening } from './locations.import.opening.ts';
import { type LocationImportRepository, openingLine } from './locations.import.repository.ts';
import type { Layout } from './locations.import.rows.ts';

export interface ApplyOptions {
  workspaceId: number;
  layout: Layout;
  /** Whether the file may repeat a key (see looseKey); saves a pass over the rows when not. */
  mayRepeat: boolean;
  tagNames: string[];
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
  const { workspaceId, layout, mayRepeat, signal } = options;
  const settles = settlesOpening(layout.opening);
  const refused: RefusedRow[] = [];
  for (;;) {
    await imports.matchStaged(tx, workspaceId, mayRepeat, signal);
    if (!settles) break;
    let lines = '';
    const dropped: number[] = [];
    for await (const rows of imports.settleRows(tx)) {
      for (const row of rows) {
        const settled = settleOpening(row, layout.opening);
        if ('errors' in settled) {
          dropped.push(settled.i);
          for (const error of settled.errors) refused.push({ i: settled.i, ...error });
        } else {
          lines += openingLine(settled);
        }
      }
    }
    signal?.throwIfAborted();
    if (dropped.length > 0) {
      await imports.dropStaged(tx, dropped);
      // An earlier row of a dropped row's key may win now: match again, and settle the winners.
      if (mayRepeat) continue;
    }
    await imports.stageOpening(tx, lines);
    break;
  }
  const counts = await imports.writeStaged(tx, { ...options, settled: settles });
  refused.sort((a, b) => a.i - b.i);
  return { ...counts, refused };
}
