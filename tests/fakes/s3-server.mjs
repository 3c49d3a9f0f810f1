// The s3rver process started by tests/fakes/s3.ts. It runs in a Node of its own started with
// --openssl-legacy-provider: s3rver encrypts ListObjectsV2 continuation tokens with DES, which
// OpenSSL 3 refuses otherwise, so any truncated listing would fail with a 500.
// argv: a JSON object {directory, bucket}. Prints {"port": N} once listening; exits when its
// stdin closes (the test process ended or called close()).
import S3rver from 's3rver';

const { directory, bucket } = JSON.parse(process.argv[2] ?? '{}');
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
});

try {
  const { port } = await server.run();
  process.stdout.write(`${JSON.stringify({ port })}\n`);
} catch (error) {
  console.error(error);
  process.exit(1);
}

process.stdin.on('close', () => process.exit(0));
process.stdin.resume();
