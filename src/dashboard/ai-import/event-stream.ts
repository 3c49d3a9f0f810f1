// Server-sent events read with fetch: EventSource cannot send the Authorization header the API
// authenticates by (docs/api.md, GET /processes/{id}/stream), so the stream is fetched with the
// bearer token and its text cut into messages here (the `id`, `event` and `data` fields of the
// event-stream format; comments and `retry` are read past).

export interface StreamMessage {
  id: string | undefined;
  event: string;
  data: string;
}

/** The message of one block of field lines (the text between two blank lines), if it has data. */
function messageOf(block: string): StreamMessage | undefined {
  let id: string | undefined;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r\n|\r|\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') id = value;
  }
  return data.length > 0 ? { id, event, data: data.join('\n') } : undefined;
}

/** Each message of the body as it arrives; ends when the server ends the stream. */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/);
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        const message = messageOf(block);
        if (message) yield message;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
