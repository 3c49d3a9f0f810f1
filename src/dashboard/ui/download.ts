// A file made in the page handed to the browser as a download (a template, recovery codes):
// a Blob behind an object URL, clicked through a link that never joins the document.

export function downloadText(fileName: string, text: string, type = 'text/plain'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The browser reads the blob after the click has returned; revoking at once can cancel the
  // download in some browsers, so the URL is let go on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
