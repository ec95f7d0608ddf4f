// Raw baseline: undici request(), the body split on blank lines, JSON.parse of each `data:` payload.
// No validation, no error mapping, no assembly: the floor a client can reach with the same transport.
import { Agent, request } from 'undici';

export function setup(baseURL) {
  const dispatcher = new Agent();
  const url = `${baseURL}/chat/completions`;
  return {
    async run(model, sink) {
      const { statusCode, body } = await request(url, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: 'Bearer bench-key' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'bench' }], stream: true }),
      });
      if (statusCode !== 200) throw new Error(`raw: HTTP ${statusCode}: ${await body.text()}`);
      const utf8 = new TextDecoder();
      let buf = '';
      for await (const bytes of body) {
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
    close: () => dispatcher.close(),
  };
}
