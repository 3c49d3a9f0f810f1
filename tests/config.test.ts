// src/config/config.ts: one schema over the environment; bad values name their variable.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadDotEnv } from '../src/config/config.ts';
import { tempDir } from './helpers/temp.ts';

const tempDataDir = () => tempDir('config-');
const secrets = { JWT_SECRET: 'x'.repeat(40), APP_KEY: Buffer.alloc(32, 1).toString('base64') };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ DATA_DIR: tempDataDir(), ...secrets, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: tempDataDir(), ...secrets });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.jwt.ttlMinutes).toBe(20160);
    expect(config.storage.driver).toBe('local');
    expect(config.storage.cdnUrl).toBe('http://127.0.0.1:3000/cdn');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.geocoder.kind).toBe('none');
    expect(config.providerBaseUrls).toEqual({});
    expect(config.dashboardTileUrl).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect(config.publishChunkedFrom).toBe(5000);
  });

  it('publishes chunked from PUBLISH_CHUNKED_FROM locations, never with 0', () => {
    const from = (value: string) =>
      loadConfig({ DATA_DIR: tempDataDir(), ...secrets, PUBLISH_CHUNKED_FROM: value }).publishChunkedFrom;
    expect(from('1000')).toBe(1000);
    expect(from('0')).toBeNull();
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ APP_KEY: 'too-short' }, 'APP_KEY'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ JWT_TTL_MINUTES: '-5' }, 'JWT_TTL_MINUTES'],
    [{ STORAGE_DRIVER: 'ftp' }, 'STORAGE_DRIVER'],
    [{ CDN_URL: 'not a url' }, 'CDN_URL'],
    [{ PROVIDER_BASE_URLS: '{not json' }, 'PROVIDER_BASE_URLS'],
    [{ PROVIDER_BASE_URLS: '{"google": "nope"}' }, 'PROVIDER_BASE_URLS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ STORAGE_DRIVER: 's3' }, 'S3_BUCKET'],
    [{ S3_TIMEOUT_MS: 'soon' }, 'S3_TIMEOUT_MS'],
    [{ S3_TIMEOUT_MS: '50' }, 'S3_TIMEOUT_MS'],
    [{ PUBLISH_CHUNKED_FROM: '-1' }, 'PUBLISH_CHUNKED_FROM'],
    [{ PUBLISH_CHUNKED_FROM: 'lots' }, 'PUBLISH_CHUNKED_FROM'],
    [{ DASHBOARD_TILE_URL: 'tiles please' }, 'DASHBOARD_TILE_URL'],
    [{ DASHBOARD_TILE_URL: 'ftp://tiles.example/{z}/{x}/{y}.png' }, 'DASHBOARD_TILE_URL'],
    [{ DASHBOARD_TILE_URL: 'https://{s}.tiles.example/{z}/{x}/{y}.png' }, 'DASHBOARD_TILE_URL'],
    [{ DASHBOARD_TILE_URL: 'https://tiles.example/{z}/{x}.png' }, 'DASHBOARD_TILE_URL'],
  ])('refuses %j naming %s', (env, variable) => {
    const problems = problemsOf(env);
    expect(problems.some((problem) => problem.startsWith(`${variable}:`))).toBe(true);
  });

  it('names every bad variable at once', () => {
    const problems = problemsOf({ PORT: 'x', LOG_LEVEL: 'loud' });
    expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual(['LOG_LEVEL', 'PORT']);
  });

  it('stops in production when secrets are missing', () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDataDir() });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.sort()).toEqual([
      'APP_KEY: is required in production',
      'JWT_SECRET: is required in production',
    ]);
  });

  it('generates development secrets once into the data directory and reuses them', () => {
    const dataDir = tempDataDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'secrets.json');
    expect(existsSync(file)).toBe(true);
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.jwt.secret).toBe(first.jwt.secret);
    expect(second.appKey.equals(first.appKey)).toBe(true);
    expect(first.appKey).toHaveLength(32);
    expect(JSON.parse(readFileSync(file, 'utf8')).JWT_SECRET).toBe(first.jwt.secret);
  });

  it('parses PROVIDER_BASE_URLS and S3 settings', () => {
    const config = loadConfig({
      DATA_DIR: tempDataDir(),
      ...secrets,
      PROVIDER_BASE_URLS: '{"google": "http://127.0.0.1:9999"}',
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'finders',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.providerBaseUrls).toEqual({ google: 'http://127.0.0.1:9999' });
    expect(config.storage.s3).toMatchObject({ bucket: 'finders', forcePathStyle: true, timeoutMs: 10_000 });
    const bounded = loadConfig({ DATA_DIR: tempDataDir(), ...secrets, S3_TIMEOUT_MS: '4000' });
    expect(bounded.storage.s3.timeoutMs).toBe(4000);
  });

  it('reads .env when present, without overriding variables already set', () => {
    const file = path.join(tempDataDir(), '.env');
    writeFileSync(file, 'LF_TEST_FROM_DOTENV=from-file\nLF_TEST_ALREADY_SET=from-file\n');
    process.env.LF_TEST_ALREADY_SET = 'from-environment';
    try {
      loadDotEnv(file);
      expect(process.env.LF_TEST_FROM_DOTENV).toBe('from-file');
      expect(process.env.LF_TEST_ALREADY_SET).toBe('from-environment');
      loadDotEnv(path.join(tempDataDir(), 'missing.env')); // absent: nothing happens
    } finally {
      delete process.env.LF_TEST_FROM_DOTENV;
      delete process.env.LF_TEST_ALREADY_SET;
    }
  });

  it('stops the real entry point with a message naming the variable', async () => {
    const { spawnSync } = await import('node:child_process');
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, PORT: 'not-a-port', DATA_DIR: tempDataDir() },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT:');
  });
});
