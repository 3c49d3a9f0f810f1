// Request and response shapes of the widget payload and publishing routes.
import { z } from 'zod';

/** A finder token: 32 random bytes in base64url (43 characters); anything else names no finder. */
export const finderKeyParamsSchema = z.object({
  key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,128}$/, 'Must be a finder token (base64url).')
    .describe('The finder token'),
});

export const publishResultSchema = z.object({
  hash: z.string().describe('SHA-1 (hex) of the published payload'),
});

export const publicationInfoSchema = z.object({
  hash: z.string().nullable().describe('SHA-1 of the last published payload; null when never published'),
  last_synced_at: z.string().nullable().describe('When it was published (ISO 8601); null when never'),
});
