// POST /locations/import: multipart with fields `file` (the CSV) and `workspace_id`. The file
// is spooled to disk first (under DATA_DIR/spool, src/lib/spool.ts), so the fields may come in
// any order and an upload over the 50 MB limit is refused (413) before the database is touched.

import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createValidationError, type FieldErrors } from '../../../lib/errors.ts';
import { clientGoneSignal } from '../../../lib/http.ts';
import { assertMultipart, multipartBodyLimit, multipartParts } from '../../../lib/multipart.ts';
import { bearerSecurity, idSchema } from '../../../lib/schemas.ts';
import { createSpool, removeSpool } from '../../../lib/spool.ts';

import { documentMultipartForm } from '../../../plugins/openapi.ts';
import { guardScope, type RouteScope } from '../../auth/auth.scope.ts';
import { importFormSchema, importResultSchema } from '../locations.schemas.ts';
import { CSV_MAX_BYTES } from './locations.import.rows.ts';
import type { AbandonedUpload } from './locations.import.service.ts';

interface Upload {
  workspaceId: number;
  path: string;
  fileName: string;
  bytes: number;
}

/** Reads the multipart body into `dir` (the caller removes it), noting in `seen` what arrived. */
async function readUpload(request: FastifyRequest, dir: string, seen: AbandonedUpload): Promise<Upload> {
  let workspaceField: string | undefined;
  let file: Omit<Upload, 'workspaceId'> | undefined;
  for await (const part of multipartParts(request, { fileBytes: CSV_MAX_BYTES })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        continue;
      }
      const target = path.join(dir, 'upload.csv');
      seen.fileName = part.filename || 'upload.csv';
      try {
        await pipeline(part.file, createWriteStream(target));
      } finally {
        seen.bytes = part.file.bytesRead;
      }
      file = { path: target, fileName: seen.fileName, bytes: part.file.bytesRead };
    } else if (part.fieldname === 'workspace_id') {
      workspaceField = String(part.value);
      seen.workspaceId = idSchema.safeParse(workspaceField).data;
    }
  }

  const errors: FieldErrors = {};
  const workspaceId = idSchema.safeParse(workspaceField);
  if (workspaceField === undefined) errors.workspace_id = ['The workspace id field is required.'];
  else if (!workspaceId.success) errors.workspace_id = ['The workspace id must be a positive integer.'];
  if (!file) errors.file = ['The file field is required.'];
  if (Object.keys(errors).length > 0 || !file || !workspaceId.success) throw createValidationError(errors);
  return { ...file, workspaceId: workspaceId.data };
}

export const locationImportRoutes: FastifyPluginAsyncZod<{ scope: RouteScope }> = async (app, { scope }) => {
  const { services, config, inFlight } = app.deps;
  guardScope(app, scope);

  app.post(
    '/import',
    {
      bodyLimit: multipartBodyLimit(CSV_MAX_BYTES),
      schema: {
        tags: [`${scope.tag}locations`],
        summary: 'Import locations from a CSV file (multipart: file, workspace_id)',
        description:
          'Rows matching an existing location (external_id, else title + address + zip) are updated, others created. Bad rows are skipped and listed in errors. An import that runs past its time budget (IMPORT_TIME_BUDGET_MS) is rolled back and answered 503 time_budget_exceeded.',
        security: bearerSecurity,
        consumes: ['multipart/form-data'],
        response: {
          200: importResultSchema,
        },
      },
      config: { swaggerTransform: documentMultipartForm(importFormSchema) },
    },
    async (request, reply) => {
      assertMultipart(request);
      const actor = scope.actor(request);
      const signal = clientGoneSignal(reply, app.shuttingDown);
      // Tracked until its process is recorded, even after the shutdown cut its connection.
      return inFlight.track(async () => {
        const dir = await createSpool(config.dataDir, 'lf-import-');
        const seen: AbandonedUpload = {
          workspaceId: undefined,
          fileName: undefined,
          bytes: 0,
          startedAt: new Date(),
        };
        try {
          let upload: Upload;
          try {
            upload = await readUpload(request, dir, seen);
          } catch (error) {
            if (signal.aborted) await services.locationImport.abandonUpload(actor, seen, signal.reason);
            throw error;
          }
          return await services.locationImport.importCsv(actor, { ...upload, signal });
        } finally {
          await removeSpool(dir);
        }
      });
    },
  );
};
