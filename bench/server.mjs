// A tiny loopback SSE server for the streaming benchmark (node:http, 127.0.0.1, port 0).
// Every stream body is rendered once into a Buffer, so serving it costs the same for every client.
// Chunks follow the contract exactly:
//   data: {"id":..,"object":"chat.completion.chunk","created":..,"model":..,"choices":[{"index":0,"delta":{..},"finish_reason":null}]}\n\n
// then a final chunk with finish_reason, then `data: [DONE]\n\n`.
// The request's `model` picks the body: `content-<N>`, `tools-<N>` or `first` (time to first delta).
import { createServer } from 'node:http';

const ID = 'chatcmpl-bench0000000000';
const CREATED = 1_760_000_000;
export const TOOL_CALLS = 4;
export const TOOL_NAME = 'write_file';
const WORDS = [' the', ' stream', ' of', ' tokens', ' arrives', ' in', ' small', ' pieces', ',', ' quickly', '.', ' Sovereign', ' cloud', ' models', ' answer', '\n'];
// Argument fragments: plain letters and digits, so they need no JSON escaping inside a string.
const FRAGMENTS = ['abc', 'defgh', 'ij', 'klmno', 'pqrs', 'tuvw12', 'xyz', '345', '6789', 'ABCDE'];
const FIRST_DELAY_MS = 3;

/**
 * @param {string} model
 * @param {object} delta
 * @param {string | null} [finishReason]
 */
function chunk(model, delta, finishReason = null) {
  return `data: ${JSON.stringify({
    id: ID,
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  })}\n\n`;
}

const DONE = 'data: [DONE]\n\n';

/** `n` content deltas, then `stop`. Returns the body and what a client must see. */
export function renderContent(n, model = `content-${n}`) {
  const parts = [];
  let chars = 0;
  for (let i = 0; i < n; i++) {
    const text = WORDS[i % WORDS.length] + (i % 97 === 0 ? String(i) : '');
    chars += text.length;
    parts.push(chunk(model, { content: text }));
  }
  parts.push(chunk(model, {}, 'stop'), DONE);
  return { body: Buffer.from(parts.join('')), expect: { text: n, textChars: chars, tool: 0, toolChars: 0 } };
}

/**
 * `n` argument fragments spread over TOOL_CALLS tool calls (by index, one call after another).
 * The first delta of a call carries id, type, name and the first fragment; the arguments of each
 * call form the JSON text {"data":"..."}. Ends with `tool_calls`.
 */
export function renderTools(n, model = `tools-${n}`) {
  if (n < TOOL_CALLS * 3) throw new Error(`tools workload needs at least ${TOOL_CALLS * 3} fragments`);
  const parts = [];
  let chars = 0;
  const perCall = Math.floor(n / TOOL_CALLS);
  const argsByCall = [];
  for (let call = 0; call < TOOL_CALLS; call++) {
    const count = call === TOOL_CALLS - 1 ? n - perCall * (TOOL_CALLS - 1) : perCall;
    let args = '';
    for (let j = 0; j < count; j++) {
      const fragment = j === 0 ? '{"data":"' : j === count - 1 ? '"}' : (FRAGMENTS[j % FRAGMENTS.length] ?? '');
      args += fragment;
      chars += fragment.length;
      const entry = j === 0
        ? { index: call, id: `call_bench_${call}`, type: 'function', function: { name: TOOL_NAME, arguments: fragment } }
        : { index: call, function: { arguments: fragment } };
      parts.push(chunk(model, { tool_calls: [entry] }));
    }
    argsByCall.push(args);
  }
  parts.push(chunk(model, {}, 'tool_calls'), DONE);
  return { body: Buffer.from(parts.join('')), expect: { text: 0, textChars: 0, tool: n, toolChars: chars, calls: TOOL_CALLS, argsLengths: argsByCall.map((a) => a.length) } };
}

/** The time-to-first-delta body: one delta sent at once, the end a few ms later. */
export function renderFirst(model = 'first') {
  const head = Buffer.from(chunk(model, { content: 'Hello' }));
  const tail = Buffer.from(chunk(model, {}, 'stop') + DONE);
  return { head, tail, expect: { text: 1, textChars: 5, tool: 0, toolChars: 0 } };
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'transfer-encoding': 'chunked',
};

/**
 * Starts the server. `bodies` maps a model id to a pre-rendered Buffer.
 * Resolves with { url (the /v1 base), port, close() }.
 */
export async function startServer(bodies) {
  const first = renderFirst();
  const sockets = new Set();
  const server = createServer((req, res) => {
    const parts = [];
    req.on('data', (d) => parts.push(d));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error', param: null, code: null } }));
        return;
      }
      let model;
      try {
        model = JSON.parse(Buffer.concat(parts).toString('utf8')).model;
      } catch {
        model = undefined;
      }
      if (model === 'first') {
        res.writeHead(200, SSE_HEADERS);
        res.write(first.head);
        setTimeout(() => res.end(first.tail), FIRST_DELAY_MS);
        return;
      }
      const body = bodies.get(model);
      if (!body) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `The model \`${model}\` does not exist.`, type: 'invalid_request_error', param: 'model', code: 'model_not_found' } }));
        return;
      }
      res.writeHead(200, SSE_HEADERS);
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((/** @type {(value?: void) => void} */ resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    port,
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((/** @type {(value?: void) => void} */ resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
