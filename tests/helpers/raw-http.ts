// A raw HTTP/1.1 client on one TCP connection, for tests that watch what a server does with the
// connection itself: answers counted as they arrive, whether the server closes it, and request
// bodies written with back-pressure, as they are or chunked.
import { connect, type Socket } from 'node:net';

export interface RawConnection {
  socket: Socket;
  /** Everything received so far, as Latin-1 text. */
  text: () => string;
  /** Resolves once `count` HTTP answers have begun to arrive. */
  answers: (count: number) => Promise<void>;
  /** Resolves when the connection closes, whoever closed it. */
  closed: Promise<void>;
}

export function openRaw(port: number): RawConnection {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  const waiting: { count: number; resolve: () => void }[] = [];
  const seen = () => text.split('HTTP/1.1 ').length - 1;
  socket.on('data', (data) => {
    text += data.toString('latin1');
    for (const wait of waiting.filter((entry) => seen() >= entry.count)) wait.resolve();
  });
  // A reset is an outcome the tests look at through `closed`, not a failure of the client.
  socket.on('error', () => {});
  return {
    socket,
    text: () => text,
    answers: (count) =>
      new Promise((resolve) => {
        waiting.push({ count, resolve });
        if (seen() >= count) resolve();
      }),
    closed: new Promise((resolve) => socket.once('close', () => resolve())),
  };
}

/** One piece of a chunked body (RFC 9112 §7.1). */
export const chunkFrame = (piece: Buffer) =>
  Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);

/**
 * Writes `total` body bytes in 64 KiB pieces (each through `frame`), honouring back-pressure,
 * until done or the connection closes; answers how many were written.
 */
export async function pump(socket: Socket, total: number, frame = (piece: Buffer) => piece): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  while (sent < total && !socket.destroyed) {
    const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
    sent += piece.length;
    if (!socket.write(frame(piece))) {
      await new Promise((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
    }
  }
  return sent;
}
