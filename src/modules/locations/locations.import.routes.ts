// POST /locations/import: multipart with fields `file` (the CSV) and `workspace_id`. The file
// is spooled to disk first (under DATA_DIR/spool, src/lib/spool.ts), so the fields may come in
// any order and an upload over the 50 MB limit is refused (413) before the database is touched.

import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createValidationError, type FieldErrors } from '../../lib/errors.ts';
import { clientGoneSignal } from '../../lib/http.ts';
import { assertMultipart } from '../../lib/multipart.ts';
import { bearerSecurity, idSchema } from '../../lib/schemas.ts';
import { createSpool } from '../../lib/spool.ts';

import { documentMultipartForm } from '../../plugins/openapi.ts';
import { guardScope, type RouteScope } from '../../plugins/scope.ts';
import { CSV_MAX_BYTES } from './locations.import.rows.ts';
import { importFormSchema, importResultSchema } from './locations.schemas.ts';

interface Upload {
  workspaceId: number;
  path: string;
  fileName: string;
  bytes: number;
}

/** Reads the multipart body; the caller removes `dir` afterwards. */
async function readUpload(request: FastifyRequest, dir: string): Promise<Upload> {
  let workspaceField: string | undefined;
  let file: Omit<Upload, 'workspaceId'> | undefined;
  for await (const part of request.parts({ limits: { fileSize: CSV_MAX_BYTES } })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        continue;
      }
      const target = path.join(dir, 'upload.csv');
      await pipeline(part.file, createWriteStream(target));
      file = { path: target, fileName: part.filename || 'upload.csv', bytes: part.file.bytesRead };
    } else if (part.fieldname === 'workspace_id') {
      workspaceField = String(part.value);
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
  const { services, config } = app.deps;
  guardScope(app, scope);

  app.post(
    '/import',
    {
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
      assertMultipart(request, { fileBytes: CSV_MAX_BYTES });
      const signal = clientGoneSignal(reply);
      const dir = await createSpool(config.dataDir, 'lf-import-');
      try {
        const upload = await readUpload(request, dir);
        return await services.locationImport.importCsv(scope.actor(request), { ...upload, signal });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
};
