// Raw baseline on fetch: the same as raw.mjs, through the global fetch (WHATWG) instead of undici's
// request(). Fetch is the engine Stratus' client uses (the extension host's own), so the
// difference between this row and `raw` is the engine's, and Stratus' own overhead is what it
// adds over this row.
import { pumpChatDeltas } from './chatDeltas.mjs';

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
      await pumpChatDeltas(res.body, sink);
    },
    close: async () => undefined,
  };
}
