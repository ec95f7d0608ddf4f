// The baselines' SSE reading, shared by raw.mjs and rawFetch.mjs: the body split on blank lines,
// JSON.parse of each `data:` payload, content and tool-call argument deltas to the sink. No
// validation, no error mapping, no assembly: the floor a client can reach.

/**
 * @param {AsyncIterable<Uint8Array>} chunks the response body
 * @param {{ text(t: string): void, tool(index: number, args: string): void }} sink
 */
export async function pumpChatDeltas(chunks, sink) {
  const utf8 = new TextDecoder();
  let buf = '';
  for await (const bytes of chunks) {
    buf += utf8.decode(bytes, { stream: true });
    let start = 0;
    let end;
    while ((end = buf.indexOf('\n\n', start)) >= 0) {
      const event = buf.slice(start, end);
      start = end + 2;
      if (!event.startsWith('data: ')) continue;
      const data = event.slice(6);
      if (data === '[DONE]') continue;
      const delta = JSON.parse(data).choices[0]?.delta;
      if (!delta) continue;
      if (delta.content) sink.text(delta.content);
      const calls = delta.tool_calls;
      if (calls) for (let i = 0; i < calls.length; i++) {
        const args = calls[i].function?.arguments;
        if (args) sink.tool(calls[i].index, args);
      }
    }
    buf = start === buf.length ? '' : buf.slice(start);
  }
}
