// The Mailer (docs/api.md, Invites and mail): over SMTP_URL to a real SMTP server, and without it,
// one .eml file per message under DATA_DIR/mail with a log line that never holds the body.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.ts';
import { createMailer, escapeHtml, type MailMessage } from '../src/lib/mail.ts';
import { type FakeSmtp, startFakeSmtp } from './fakes/smtp.ts';
import { tempDir } from './helpers/temp.ts';

const FROM = 'Location Finder Tests <mailer@example.test>';

function capturingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: 'info' }, sink) };
}

const message = (overrides: Partial<MailMessage> = {}): MailMessage => ({
  to: 'ada@example.test',
  subject: 'Your login code',
  text: 'Your code is 481516. It expires in 10 minutes.',
  html: '<p>Your code is <strong>481516</strong>. It expires in 10 minutes.</p>',
  ...overrides,
});

describe('with SMTP_URL', () => {
  let smtp: FakeSmtp;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('delivers a multipart message with both parts, from MAIL_FROM', async () => {
    const { logger, lines } = capturingLogger();
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM, mailDir: tempDir('mail-'), logger });
    try {
      await mailer.send(message({ to: 'grace@example.test', subject: 'Über & more' }));
    } finally {
      mailer.close();
    }

    const mail = await smtp.waitFor((received) => received.to.includes('grace@example.test'));
    expect(mail.from).toBe(FROM);
    expect(mail.envelope).toEqual({ from: 'mailer@example.test', to: ['grace@example.test'] });
    expect(mail.subject).toBe('Über & more');
    expect(mail.text.trim()).toBe('Your code is 481516. It expires in 10 minutes.');
    expect(mail.html).toBe('<p>Your code is <strong>481516</strong>. It expires in 10 minutes.</p>');
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/i);
    expect(mail.raw).toMatch(/Content-Type: text\/html/i);

    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: 'mail sent', to: 'grace@example.test', subject: 'Über & more' }),
    );
    expect(lines.join('')).not.toContain('481516');
  });

  it('rejects when the server is gone', async () => {
    const gone = await startFakeSmtp();
    await gone.close();
    const { logger } = capturingLogger();
    const mailer = createMailer({ smtpUrl: gone.url, from: FROM, mailDir: tempDir('mail-'), logger });
    try {
      await expect(mailer.send(message())).rejects.toThrow();
    } finally {
      mailer.close();
    }
  });
});

describe('without SMTP_URL', () => {
  it('writes one .eml file that parses back to the message, and logs no body', async () => {
    const dataDir = tempDir('data-');
    const mailDir = path.join(dataDir, 'mail');
    const { logger, lines } = capturingLogger();
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, mailDir, logger });
    const sent = message({ subject: 'Invitation to <Shop & Co>' });
    try {
      await mailer.send(sent);
    } finally {
      mailer.close();
    }

    const files = await readdir(mailDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const parsed = await simpleParser(await readFile(path.join(mailDir, files[0]!)));
    expect(parsed.from?.value).toEqual([{ name: 'Location Finder Tests', address: 'mailer@example.test' }]);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : undefined).toBe(sent.to);
    expect(parsed.subject).toBe(sent.subject);
    expect(parsed.text?.trim()).toBe(sent.text);
    expect(parsed.html).toBe(sent.html);

    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 30,
      to: sent.to,
      subject: sent.subject,
      file: path.join(mailDir, files[0]!),
    });
    expect(lines[0]).not.toContain('481516');
    expect(lines[0]).not.toContain('expires in');
  });

  it('writes each message to its own file', async () => {
    const mailDir = path.join(tempDir('data-'), 'mail');
    const { logger } = capturingLogger();
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, mailDir, logger });
    try {
      await Promise.all([mailer.send(message()), mailer.send(message()), mailer.send(message())]);
    } finally {
      mailer.close();
    }
    expect(await readdir(mailDir)).toHaveLength(3);
  });
});

describe('escapeHtml', () => {
  it('escapes the characters that matter in text and attributes', () => {
    expect(escapeHtml(`<b>Shop & Co</b> "it's"`)).toBe(
      '&#60;b&#62;Shop &#38; Co&#60;/b&#62; &#34;it&#39;s&#34;',
    );
  });
});
