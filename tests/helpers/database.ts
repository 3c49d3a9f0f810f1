// A database of the test file's own, copied from the migrated template.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject('serverUrl');
  const template = inject('templateDatabase');
  const pid = template.replace('lf_template_', '');
  const name = `lf_t_${pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}" template "${template}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `${serverUrl}/${name}`,
    async drop() {
      const sql = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await sql.end();
      }
    },
  };
}
