// A real S3 protocol server (s3rver) on a free port, storing under a temporary directory, with
// one bucket. The code under test talks to it through @aws-sdk/client-s3 like to any other
// S3-compatible store; only the endpoint differs. s3rver runs in a child process (see
// s3-server.mjs for why), which also means a client left open cannot make close() hang.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/temp.ts';

export interface FakeS3 {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The STORAGE_* / S3_* variables that point the app at this server (for testConfig's env). */
  env: Record<string, string>;
  close(): Promise<void>;
}

const serverScript = fileURLToPath(new URL('./s3-server.mjs', import.meta.url));

function readPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const onExit = (code: number | null) => {
      lines.close();
      reject(new Error(`s3rver exited with code ${code} before listening`));
    };
    child.once('exit', onExit);
    lines.on('line', (line) => {
      const { port } = JSON.parse(line) as { port?: number };
      if (!port) return;
      child.off('exit', onExit);
      lines.close();
      resolve(port);
    });
  });
}

export async function startFakeS3(): Promise<FakeS3> {
  const bucket = `lf-test-${randomBytes(4).toString('hex')}`;
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', serverScript, JSON.stringify({ directory: tempDir('s3-'), bucket })],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let port: number;
  try {
    port = await readPort(child);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }

  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's built-in account.
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  const region = 'us-east-1';
  return {
    endpoint,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    env: {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: bucket,
      S3_REGION: region,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
