// The development defaults' secrets (README.md, Configuration): outside production, a JWT_SECRET
// and an APP_KEY that are not set are generated once into `<DATA_DIR>/secrets.json`, next to the
// embedded PostgreSQL's data, so restarts keep tokens and encrypted keys valid.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface GeneratedSecrets {
  JWT_SECRET: string;
  APP_KEY: string;
}

export function loadOrCreateDevSecrets(dataDir: string): GeneratedSecrets {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<GeneratedSecrets>;
    if (stored.JWT_SECRET && stored.APP_KEY) return stored as GeneratedSecrets;
  }
  const secrets: GeneratedSecrets = {
    JWT_SECRET: randomBytes(48).toString('base64url'),
    APP_KEY: randomBytes(32).toString('base64'),
  };
  mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
