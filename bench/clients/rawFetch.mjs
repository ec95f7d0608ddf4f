// Raw baseline on fetch: the same as raw.mjs, through the global fetch (WHATWG) instead of undici's
// request(). Fetch is the engine Stratus' client uses (the extension host's own), so the
// difference between this row and `raw` is the engine's, and Stratus' own overhead is what it
// adds over this row.
export function setup(baseURL) {
  const url = `${baseURL}/chat/completions`;
  return {
    async run(model, sink) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: 'Bearer bench-key' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'bench' }], stream: true }),
      });
      if (res.status !== 200) throw new Error(`rawFetch: HTTP ${res.status}: ${await res.text()}`);
      if (!res.body) throw new Error('rawFetch: no body');
      const utf8 = new TextDecoder();
      let buf = '';
      for await (const bytes of res.body) {
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
    },
    close: async () => undefined,
  };
}
