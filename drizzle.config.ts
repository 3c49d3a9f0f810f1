// drizzle-kit reads the schema from src/schema.ts and writes reviewed SQL into drizzle/.
// `generate` needs no database; DATABASE_URL is only read by drizzle-kit's own
// introspection commands (the service applies migrations with `npm run migrate`).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema.ts',
  out: './drizzle',
  casing: 'snake_case',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost:5432/postgres' },
  strict: true,
  verbose: true,
});
