// The sign-in code mail of the email second factor. The code stays out of the subject:
// subjects are logged (src/lib/mail.ts).
import { escapeHtml, type MailMessage } from '../../../lib/mail.ts';

export function loginCodeMail(to: { email: string; name: string }, code: string): MailMessage {
  return {
    to: to.email,
    subject: 'Your sign-in code',
    text: `Hello ${to.name},\n\nYour sign-in code is ${code}. It expires in 10 minutes.\n\nIf you did not try to sign in, change your password.\n`,
    html: `<p>Hello ${escapeHtml(to.name)},</p><p>Your sign-in code is <strong>${code}</strong>. It expires in 10 minutes.</p><p>If you did not try to sign in, change your password.</p>`,
  };
}
