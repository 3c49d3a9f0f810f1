// An HTTP proxy in front of a fake dependency (the S3 server, or any other HTTP fake), with the
// faults of a real outage switched on and off by the test: `refuse` (nothing listens on the
// port: ECONNREFUSED), `freeze` (connections are accepted and never read nor answered, as a
// stopped or hung host does), and `failWhen` (requests a predicate picks get an error status,
// by default S3's 500 InternalError). The code under test only sees the proxy's URL.
import { once } from 'node:events';
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Path and query, as the client sent them. */
  url: string;
}

export interface FailAnswer {
  status: number;
  body: string;
  contentType: string;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** Every request that reached the proxy's HTTP side (frozen connections are never read). */
  requests: ProxiedRequest[];
  /** Forward everything again: listens if it was refusing, drops frozen connections, clears `failWhen`. */
  heal(): Promise<void>;
  /** Stops listening and drops every open connection: the next connection attempt is refused. */
  refuse(): Promise<void>;
  /** New connections are accepted and never read; requests on open connections are never answered. */
  freeze(): void;
  /** Requests for which `match` holds are answered with an error (S3's 500 InternalError by default). */
  failWhen(match: (request: ProxiedRequest) => boolean, answer?: Partial<FailAnswer>): void;
  close(): Promise<void>;
}

const S3_INTERNAL_ERROR: FailAnswer = {
  status: 500,
  contentType: 'application/xml',
  body:
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InternalError</Code>' +
    '<Message>We encountered an internal error. Please try again.</Message></Error>',
};

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  let mode: 'pass' | 'freeze' | 'refuse' = 'pass';
  let failure: { match: (request: ProxiedRequest) => boolean; answer: FailAnswer } | undefined;
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();

  const http = createHttpServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    const seen = { method: req.method ?? 'GET', url: req.url ?? '/' };
    requests.push(seen);
    if (mode === 'freeze') {
      // Neither the body nor an answer: the client's upload stalls once the buffers are full.
      req.socket.pause();
      return;
    }
    if (failure?.match(seen)) {
      const { status, body, contentType } = failure.answer;
      req.resume();
      req.once('end', () => res.writeHead(status, { 'content-type': contentType }).end(body));
      return;
    }
    forward(req, res);
  });

  function forward(req: IncomingMessage, res: ServerResponse) {
    const out = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        // Unchanged, Host included: signed requests (S3's SigV4) stay valid.
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  }

  const net = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    // Frozen: accepted by the kernel and never read, like a stopped process's socket.
    if (mode === 'freeze') socket.pause();
    else http.emit('connection', socket);
  });

  const listen = async (port: number) => {
    net.listen(port, '127.0.0.1');
    await once(net, 'listening');
  };
  const dropConnections = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const stopListening = async () => {
    if (!net.listening) return;
    const closed = once(net, 'close');
    net.close();
    dropConnections();
    await closed;
  };

  await listen(0);
  const { port } = net.address() as { port: number };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    async heal() {
      failure = undefined;
      if (mode === 'freeze') dropConnections();
      mode = 'pass';
      if (!net.listening) await listen(port);
    },
    async refuse() {
      mode = 'refuse';
      await stopListening();
    },
    freeze() {
      mode = 'freeze';
    },
    failWhen(match, answer = {}) {
      failure = { match, answer: { ...S3_INTERNAL_ERROR, ...answer } };
    },
    async close() {
      await stopListening();
      http.close();
    },
  };
}
