/** Escapes text for HTML text or a quoted attribute value: the pages and mails the service writes. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
