// Raw baseline: undici request(), the body split on blank lines, JSON.parse of each `data:` payload.
// No validation, no error mapping, no assembly: the floor a client can reach with the same transport.
import { Agent, request } from 'undici';
import { pumpChatDeltas } from './chatDeltas.mjs';

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
      await pumpChatDeltas(body, sink);
    },
    close: () => dispatcher.close(),
  };
}
