// CSV import of locations (decisions §5): the uploaded file, spooled to disk by the route, is
// parsed as a stream with csv-parse, each row checked by locations.import.rows.ts and staged by
// COPY, then applied set-based by locations.import.repository.ts, all in one transaction: a
// broken file (not CSV, no title/address column, too many rows) writes nothing. A finished
// import is recorded as a completed `csv_import` process.

import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import type { Database } from '../../db/client.ts';
import { createFieldError } from '../../lib/errors.ts';
import type { PayloadChangeListener } from '../finders/finders.events.ts';
import type { ProcessesService } from '../processes/processes.service.ts';
import { type Actor, assertWorkspaceAccess } from '../workspaces/workspaces.access.ts';
import { copyLine, type LocationImportRepository } from './locations.import.repository.ts';
import {
  CSV_MAX_ROWS,
  type Layout,
  looseKey,
  MAX_REPORTED_ERRORS,
  parseRow,
  type RowError,
  readLayout,
  TagCollector,
} from './locations.import.rows.ts';
import type { LocationsRepository } from './locations.repository.ts';

export interface ImportResult {
  created: number;
  updated: number;
  skipped: number;
  errors: RowError[];
  process_id: number;
}

export interface ImportInput {
  workspaceId: number;
  /** The uploaded file, spooled to disk by the route. */
  path: string;
  fileName: string;
  bytes: number;
}

/** Refuses files that are not text: NUL bytes never occur in a CSV file. */
async function assertLooksLikeText(path: string) {
  const file = await open(path);
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(8192), 0, 8192, 0);
    if (buffer.subarray(0, bytesRead).includes(0))
      throw createFieldError('file', 'The file is not a CSV file.');
  } finally {
    await file.close();
  }
}

interface LocationImportServiceDeps {
  db: Database;
  locations: LocationsRepository;
  imports: LocationImportRepository;
  processes: ProcessesService;
  /** Told after the import commits (it never throws): the locations are in finder payloads. */
  changes: PayloadChangeListener;
}

export function createLocationImportService({
  db,
  locations,
  imports,
  processes,
  changes,
}: LocationImportServiceDeps) {
  async function importCsv(actor: Actor, input: ImportInput): Promise<ImportResult> {
    await assertWorkspaceAccess(db, actor, input.workspaceId);
    const startedAt = new Date();
    const result = await db.transaction(async (tx) => {
      await imports.lockWorkspace(tx, input.workspaceId);
      const definitions = await locations.definitions(input.workspaceId, tx);
      const errors: RowError[] = [];
      let skipped = 0;
      let rows = 0;
      let layout: Layout | undefined;

      await assertLooksLikeText(input.path);
      const copy = await imports.createStaging(tx);
      const tags = new TagCollector();
      const keys = new Set<string>();
      let mayRepeat = false;
      const source = createReadStream(input.path, { highWaterMark: 256 * 1024 });
      const parser = parse({
        bom: true,
        relax_column_count: true,
        skip_empty_lines: true,
        max_record_size: 1024 * 1024,
      });

      // parse -> check -> COPY lines, with backpressure end to end.
      async function* stage(records: AsyncIterable<string[]>) {
        let chunk = '';
        for await (const record of records) {
          if (!layout) {
            layout = readLayout(record, definitions);
            continue;
          }
          rows += 1;
          if (rows > CSV_MAX_ROWS) {
            throw createFieldError('file', `The file may not have more than ${CSV_MAX_ROWS} rows.`);
          }
          const rowErrors: RowError[] = [];
          // Row numbers count the header as row 1, like a spreadsheet.
          const parsed = parseRow(record, rows + 1, layout, rowErrors);
          if (!parsed) {
            skipped += 1;
            for (const error of rowErrors) if (errors.length < MAX_REPORTED_ERRORS) errors.push(error);
            continue;
          }
          const key = looseKey(parsed);
          if (keys.has(key)) mayRepeat = true;
          else keys.add(key);
          chunk += copyLine(rows, parsed, tags);
          if (chunk.length > 64 * 1024) {
            yield chunk;
            chunk = '';
          }
        }
        if (chunk) yield chunk;
      }

      try {
        await pipeline(source, parser, stage, copy);
      } catch (error) {
        if (error instanceof CsvError) {
          throw createFieldError('file', `The file is not valid CSV: ${error.message}`);
        }
        throw error;
      }
      if (!layout) throw createFieldError('file', 'The file is empty.');
      const applied = await imports.applyStaged(tx, {
        workspaceId: input.workspaceId,
        layout,
        mayRepeat,
        tagNames: [...tags.names.values()],
      });

      const result = { created: applied.created, updated: applied.updated, skipped, error_count: skipped };
      const processId = await processes.create(
        {
          workspaceId: input.workspaceId,
          userId: actor.userId,
          type: 'csv_import',
          status: 'completed',
          progressPercent: 100,
          currentStep: 'completed',
          summary: { ...result, rows, file_name: input.fileName, bytes: input.bytes },
          inputPayload: { file_name: input.fileName, bytes: input.bytes },
          attempts: 1,
          startedAt,
          finishedAt: new Date(),
        },
        [
          {
            type: 'step',
            status: 'completed',
            progressPercent: 100,
            step: 'completed',
            message: `Imported ${rows} rows: ${result.created} created, ${result.updated} updated, ${skipped} skipped.`,
            payload: result,
          },
        ],
        tx,
      );
      return { created: result.created, updated: result.updated, skipped, errors, process_id: processId };
    });
    await changes.workspaceChanged(input.workspaceId);
    return result;
  }

  return { importCsv };
}

export type LocationImportService = ReturnType<typeof createLocationImportService>;
