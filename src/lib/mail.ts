// Outgoing mail (docs/api.md, Invites and mail): nodemailer over SMTP_URL; without it, each message
// is rendered as one RFC 822 `.eml` file under `<DATA_DIR>/mail/` and logged by recipient and
// subject. The body is never logged: it carries login codes and invite links.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  /** Where `.eml` files go when there is no SMTP server. */
  mailDir: string;
  logger: Logger;
}

export function createMailer({ smtpUrl, from, mailDir, logger }: MailerOptions): Mailer {
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from, ...message });
        logger.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await mkdir(mailDir, { recursive: true });
      const file = path.join(mailDir, `${Date.now()}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer);
      logger.info({ to: message.to, subject: message.subject, file }, 'mail written (no SMTP_URL)');
    },
    close: () => transport.close(),
  };
}

/** Escapes text for the simple HTML part of a mail. */
export { escapeHtml } from './html.ts';
