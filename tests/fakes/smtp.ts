// A real SMTP server (smtp-server) on a free port of 127.0.0.1, for tests of outgoing mail. The
// code under test sends through nodemailer as to any server; only SMTP_URL differs. No TLS
// (STARTTLS is not offered) and AUTH is optional (any credentials are accepted). Each message
// is parsed (mailparser) before the server acknowledges it, so once `send` resolves on the
// client side, the message is already in `messages`.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The From header as `Name <address>` (unquoted), or the bare address. */
  from: string;
  /** Addresses of the To header. */
  to: string[];
  subject: string;
  text: string;
  /** The HTML part; '' when the message has none. */
  html: string;
  /** The message as received (RFC 822). */
  raw: string;
  /** The SMTP envelope: MAIL FROM and RCPT TO. */
  envelope: { from: string; to: string[] };
}

export interface FakeSmtp {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** The first message (already received or still to come) that matches; rejects after the timeout. */
  waitFor(predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** `Name <address>` (or the bare address), unquoted, for plain comparison with MAIL_FROM. */
const mailbox = (field: AddressObject | undefined): string =>
  (field?.value ?? [])
    .map((entry) => (entry.name ? `${entry.name} <${entry.address ?? ''}>` : (entry.address ?? '')))
    .join(', ');

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) =>
    object.value.map((entry) => entry.address ?? '').filter(Boolean),
  );

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const messages: ReceivedMail[] = [];
  const listeners = new Set<(mail: ReceivedMail) => void>();

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    banner: 'fake smtp for tests',
    // Connections left open by a client must not hold close() for the default 30 s.
    closeTimeout: 500,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            const mail: ReceivedMail = {
              from: mailbox(parsed.from),
              to: addresses(parsed.to),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: parsed.html || '',
              raw: raw.toString('utf8'),
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              },
            };
            messages.push(mail);
            for (const listener of listeners) listener(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });

  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(predicate = () => true, timeoutMs = 5000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const listener = (mail: ReceivedMail) => {
          if (!predicate(mail)) return;
          clearTimeout(timer);
          listeners.delete(listener);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          listeners.delete(listener);
          const subjects = messages.map((mail) => JSON.stringify(mail.subject)).join(', ') || 'none';
          reject(new Error(`no matching mail within ${timeoutMs} ms (received: ${subjects})`));
        }, timeoutMs);
        listeners.add(listener);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
