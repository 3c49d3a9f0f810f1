// CSV import of locations (docs/api.md, CSV import): the uploaded file, spooled to disk by the
// route, is parsed as a stream with csv-parse, each row checked by locations.import.rows.ts and
// staged by COPY, then applied set-based by locations.import.repository.ts, all in one transaction:
// a broken file (not CSV, no title/address column, too many rows) writes nothing. A finished import
// is recorded as a completed `csv_import` process.
//
// An import has a time budget (IMPORT_TIME_BUDGET_MS) and stops when its client leaves: the
// statement running at that moment is cancelled on the server, the transaction rolls back (so
// the workspace's import lock is released and nothing is written), and a `csv_import` process
// records the end: failed (time budget) or cancelled (client gone, or the connection cut by the
// shutdown). An upload whose connection closes before it is read whole is recorded cancelled too
// when its workspace is known.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import type { Database, Transaction } from '../../../db/client.ts';
import type { Actor } from '../../../lib/actor.ts';
import { AppError, createBadRequestError, createFieldError } from '../../../lib/errors.ts';
import { ConnectionClosedError } from '../../../lib/http.ts';
import type { PayloadChangeListener } from '../../../lib/payload-changes.ts';
import type { ProcessesService } from '../../processes/processes.service.ts';
import { assertWorkspaceAccess } from '../../workspaces/workspaces.access.ts';
import type { LocationsRepository } from '../locations.repository.ts';
import type { QueueGeocoding } from '../locations.service.ts';
import { applyStaged } from './locations.import.apply.ts';
import { copyLine, type LocationImportRepository } from './locations.import.repository.ts';
import {
  CSV_MAX_ROWS,
  type Layout,
  looseKey,
  MAX_REPORTED_ERRORS,
  parseRow,
  type RowError,
  readLayout,
} from './locations.import.rows.ts';
import { StagedValues } from './locations.import.shared.ts';

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
  /** Aborted when the connection closes (clientGoneSignal): the import stops and rolls back. */
  signal?: AbortSignal;
}

/** What was read of an upload whose connection closed before its end. */
export interface AbandonedUpload {
  /** Known when the field came before the file. */
  workspaceId: number | undefined;
  fileName: string | undefined;
  bytes: number;
  startedAt: Date;
}

/** A file parsed into the staging table. */
interface StagedFile {
  layout: Layout;
  /** Data rows read (the header not counted). */
  rows: number;
  skipped: number;
  /** The first MAX_REPORTED_ERRORS errors of the skipped rows. */
  errors: RowError[];
  /** Whether the file repeats a row key (see looseKey). */
  mayRepeat: boolean;
  shared: StagedValues;
}

/** Why the connection of an import closed, in its process's words. */
function connectionClosedMessage(reason: unknown, what: 'import' | 'upload'): string {
  return reason instanceof ConnectionClosedError && reason.duringShutdown
    ? `The service shut down before the ${what} finished.`
    : `The client closed the connection before the ${what} finished.`;
}

/** Why an import was given up; the reason of its abort signal. */
class ImportStopped extends Error {
  constructor(
    readonly status: 'failed' | 'cancelled',
    message: string,
  ) {
    super(message);
  }
}

export const createImportTimeBudgetError = (seconds: number) =>
  new AppError(
    503,
    'time_budget_exceeded',
    `The import took longer than its time budget of ${seconds} seconds and was rolled back; nothing was written. Try a smaller file.`,
  );

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
  /** The most time one import may take (config.importTimeBudgetMs). */
  timeBudgetMs: number;
  /** Queues the workspace's geocoding when the import leaves locations without coordinates. */
  queueGeocoding?: QueueGeocoding;
}

export function createLocationImportService({
  db,
  locations,
  imports,
  processes,
  changes,
  timeBudgetMs,
  queueGeocoding,
}: LocationImportServiceDeps) {
  async function importCsv(actor: Actor, input: ImportInput): Promise<ImportResult> {
    await assertWorkspaceAccess(db, actor, input.workspaceId);
    const startedAt = new Date();
    const seconds = Math.round(timeBudgetMs / 100) / 10;
    const stop = new AbortController();
    const timer = setTimeout(
      () =>
        stop.abort(
          new ImportStopped('failed', `The import took longer than its time budget of ${seconds} seconds.`),
        ),
      timeBudgetMs,
    );
    const onClientGone = () =>
      stop.abort(new ImportStopped('cancelled', connectionClosedMessage(input.signal?.reason, 'import')));
    if (input.signal?.aborted) onClientGone();
    input.signal?.addEventListener('abort', onClientGone, { once: true });
    try {
      const result = await importInTransaction(actor, input, startedAt, stop.signal);
      await changes.workspaceChanged(input.workspaceId);
      return result;
    } catch (error) {
      const reason: unknown = stop.signal.reason;
      if (!(reason instanceof ImportStopped)) throw error;
      await recordStopped(actor, { ...input, startedAt }, reason.status, reason.message);
      // A client that left never sees the answer; 400 keeps it out of the server-error log.
      throw reason.status === 'failed'
        ? createImportTimeBudgetError(seconds)
        : createBadRequestError(reason.message);
    } finally {
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onClientGone);
    }
  }

  /** The process of an import given up, written after its rollback. */
  async function recordStopped(
    actor: Actor,
    input: { workspaceId: number; fileName: string; bytes: number; startedAt: Date },
    status: ImportStopped['status'],
    why: string,
    rolledBack = true,
  ) {
    const message = `${why} ${rolledBack ? 'It was rolled back; nothing' : 'Nothing'} was written.`;
    await processes.create(
      {
        workspaceId: input.workspaceId,
        userId: actor.userId,
        type: 'csv_import',
        status,
        progressPercent: 0,
        currentStep: status,
        errorMessage: message,
        summary: { file_name: input.fileName, bytes: input.bytes },
        inputPayload: { file_name: input.fileName, bytes: input.bytes },
        attempts: 1,
        startedAt: input.startedAt,
        finishedAt: new Date(),
      },
      [{ type: 'step', status, progressPercent: 0, step: status, message }],
    );
  }

  /**
   * An upload whose connection closed before it was read whole (the client left, or the
   * shutdown cut it): a `cancelled` process when its workspace is known and the actor may reach
   * it (nothing is recorded for a workspace the actor cannot see), then the 400 nobody reads.
   */
  async function abandonUpload(actor: Actor, upload: AbandonedUpload, reason: unknown): Promise<never> {
    const why = connectionClosedMessage(reason, 'upload');
    const { workspaceId } = upload;
    if (workspaceId !== undefined && (await mayReach(actor, workspaceId))) {
      const fileName = upload.fileName ?? 'upload.csv';
      await recordStopped(actor, { ...upload, workspaceId, fileName }, 'cancelled', why, false);
    }
    throw createBadRequestError(why);
  }

  async function mayReach(actor: Actor, workspaceId: number): Promise<boolean> {
    try {
      await assertWorkspaceAccess(db, actor, workspaceId);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404) return false;
      throw error;
    }
  }

  async function importInTransaction(
    actor: Actor,
    input: ImportInput,
    startedAt: Date,
    signal: AbortSignal,
  ): Promise<ImportResult> {
    return db.transaction(async (tx) => {
      // Given up: cancel whatever statement runs on this transaction's connection. The
      // transaction waits for the cancel to be sent before it ends, so it never reaches a
      // statement of the connection's next user.
      const pid = await imports.backendPid(tx);
      let cancelling: Promise<void> | undefined;
      const cancel = () => {
        cancelling = imports.cancelBackend(db, pid).catch(() => {});
      };
      signal.addEventListener('abort', cancel, { once: true });
      try {
        return await runImport(tx, actor, input, startedAt, signal);
      } finally {
        signal.removeEventListener('abort', cancel);
        await cancelling;
      }
    });
  }

  async function runImport(
    tx: Transaction,
    actor: Actor,
    input: ImportInput,
    startedAt: Date,
    signal: AbortSignal,
  ): Promise<ImportResult> {
    signal.throwIfAborted();
    await imports.lockWorkspace(tx, input.workspaceId);
    signal.throwIfAborted();
    const definitions = await locations.definitions(input.workspaceId, tx);
    await assertLooksLikeText(input.path);
    const staged = await stageFile(tx, input.path, definitions, signal);
    const applied = await applyStaged(tx, imports, {
      workspaceId: input.workspaceId,
      layout: staged.layout,
      mayRepeat: staged.mayRepeat,
      shared: staged.shared,
      signal,
    });
    signal.throwIfAborted();
    await queueGeocoding?.(tx, input.workspaceId, actor.userId);
    // Rows refused once matched (the opening's rules between fields) are skipped rows too.
    const refused = applied.refused.map(({ i, field, message }) => ({ row: i + 1, field, message }));
    const skipped = staged.skipped + new Set(refused.map((error) => error.row)).size;
    const errors = [...staged.errors, ...refused].sort((a, b) => a.row - b.row).slice(0, MAX_REPORTED_ERRORS);
    const processId = await recordCompleted(
      tx,
      actor,
      { ...input, startedAt },
      { ...staged, skipped },
      applied,
    );
    return {
      created: applied.created,
      updated: applied.updated,
      skipped,
      errors,
      process_id: processId,
    };
  }

  /**
   * Parses the file and COPYs each valid row into the staging table, with backpressure end to
   * end (parse -> check -> COPY lines). Answers what the apply needs and the skipped rows.
   */
  async function stageFile(
    tx: Transaction,
    path: string,
    definitions: Awaited<ReturnType<LocationsRepository['definitions']>>,
    signal: AbortSignal,
  ): Promise<StagedFile> {
    const copy = await imports.createStaging(tx);
    const tally = { rows: 0, skipped: 0, errors: [] as RowError[], mayRepeat: false };
    const shared = new StagedValues();
    const keys = new Set<string>();
    let layout: Layout | undefined;

    async function* copyLines(records: AsyncIterable<string[]>) {
      let chunk = '';
      for await (const record of records) {
        if (!layout) {
          layout = readLayout(record, definitions);
          continue;
        }
        tally.rows += 1;
        if (tally.rows > CSV_MAX_ROWS) {
          throw createFieldError('file', `The file may not have more than ${CSV_MAX_ROWS} rows.`);
        }
        const rowErrors: RowError[] = [];
        // Row numbers count the header as row 1, like a spreadsheet; a row is staged as its
        // number less one (locations.import.apply.ts reports refused rows by it).
        const parsed = parseRow(record, tally.rows + 1, layout, rowErrors);
        if (!parsed) {
          tally.skipped += 1;
          for (const error of rowErrors)
            if (tally.errors.length < MAX_REPORTED_ERRORS) tally.errors.push(error);
          continue;
        }
        const key = looseKey(parsed);
        if (keys.has(key)) tally.mayRepeat = true;
        else keys.add(key);
        chunk += copyLine(tally.rows, parsed, shared);
        if (chunk.length > 64 * 1024) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    }

    const source = createReadStream(path, { highWaterMark: 256 * 1024 });
    const parser = parse({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: 1024 * 1024,
    });
    try {
      await pipeline(source, parser, copyLines, copy, { signal });
    } catch (error) {
      signal.throwIfAborted();
      if (error instanceof CsvError)
        throw createFieldError('file', `The file is not valid CSV: ${error.message}`);
      throw error;
    }
    if (!layout) throw createFieldError('file', 'The file is empty.');
    return { ...tally, layout, shared };
  }

  /** The completed `csv_import` process, written in the import's transaction; its id. */
  function recordCompleted(
    tx: Transaction,
    actor: Actor,
    input: { workspaceId: number; fileName: string; bytes: number; startedAt: Date },
    staged: StagedFile,
    applied: { created: number; updated: number },
  ): Promise<number> {
    const { rows, skipped } = staged;
    const result = { created: applied.created, updated: applied.updated, skipped, error_count: skipped };
    return processes.create(
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
        startedAt: input.startedAt,
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
  }

  return { importCsv, abandonUpload };
}

export type LocationImportService = ReturnType<typeof createLocationImportService>;
