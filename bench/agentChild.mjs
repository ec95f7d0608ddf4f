// One agent-loop benchmark run in its own process: an in-process SSE server that scripts R tool
// rounds per turn, and either Stratus' agent loop (bundled, passed as `adapter`) or a minimal
// hand-written loop over a raw undici client. Per round it records, on one clock:
//   toolStart - lastDelta   (the last streamed delta of the round -> the tool starting)
//   toolDone - toolStart    (the tool itself: `client` and `depth` edit a file on disk)
//   nextRequest - toolDone  (the tool's result -> the server receiving the next request)
// `depth` is Stratus' loop with what makes it Copilot-deep: repository instructions (an AGENTS.md
// and a copilot-instructions file of realistic size, read once per turn) in the system message,
// compaction planned before every request, and a checkpoint of every edited file (snapshot before
// its first change, the turn's checkpoint built at its end, amortised over its rounds).
// Prints one `RESULT {...}` line with the medians.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';

const task = JSON.parse(process.argv[2] ?? '{}');
const ROUNDS_PER_TURN = task.roundsPerTurn;
const TURNS = task.turns;
const WARMUP_TURNS = task.warmupTurns;
const ARGS = JSON.stringify({ path: 'src/index.ts', startLine: 1, endLine: 40 });
const SLICE = 8;

const now = () => performance.now();
let received = []; // server receive times, in order

/** @param {unknown} delta @param {string | null} [finish] */
function chunk(delta, finish = null) {
  return `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

function toolStream(round) {
  const id = `call_${round}_${Math.random().toString(36).slice(2, 10)}`;
  let out = chunk({ role: 'assistant', content: '' });
  out += chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'read_file', arguments: '' } }] });
  for (let at = 0; at < ARGS.length; at += SLICE) out += chunk({ tool_calls: [{ index: 0, function: { arguments: ARGS.slice(at, at + SLICE) } }] });
  out += chunk({}, 'tool_calls');
  return `${out}data: [DONE]\n\n`;
}

function textStream() {
  return `${chunk({ role: 'assistant', content: '' })}${chunk({ content: 'All ' })}${chunk({ content: 'done.' })}${chunk({}, 'stop')}data: [DONE]\n\n`;
}

const server = createServer((req, res) => {
  received.push(now());
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    const messages = JSON.parse(body).messages;
    let rounds = 0;
    for (const m of messages) if (m.role === 'tool') rounds++;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(rounds < ROUNDS_PER_TURN ? toolStream(rounds) : textStream());
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
const baseURL = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/v1`;

const TOOL = { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' }, startLine: { type: 'integer' }, endLine: { type: 'integer' } }, required: ['path'] } };
const RESULT_TEXT = 'File: src/index.ts\n1: export const answer = 42;';

/**
 * Timings of one turn: per round, last delta, tool start, tool done; the turn's end work (ms).
 * @returns {{ lastDelta: number[], toolStart: number[], toolDone: number[], current: number, turnEndMs: number }}
 */
function recorder() {
  return { lastDelta: [], toolStart: [], toolDone: [], current: 0, turnEndMs: 0 };
}

// The workspace the editing loops change: three source files of ~20 KB, edited in turn, and the
// repository instructions `depth` reads.
const workspace = mkdtempSync(join(tmpdir(), 'stratus-bench-ws-'));
const EDITED = ['src/parser.ts', 'src/lexer.ts', 'src/index.ts'];
mkdirSync(join(workspace, 'src'), { recursive: true });
mkdirSync(join(workspace, '.github'), { recursive: true });
for (const [k, path] of EDITED.entries()) writeFileSync(join(workspace, path), Array.from({ length: 500 }, (_, i) => `export const value${k}_${i} = ${i}; // line ${i}`).join('\n'));
/** An AGENTS.md of realistic size (~7 KB: a project's conventions, commands, layout and rules). */
const AGENTS_MD = ['# Agent guide', '', ...Array.from({ length: 12 }, (_, s) => [`## Section ${s + 1}`, ...Array.from({ length: 8 }, (_, i) => `- Rule ${s + 1}.${i + 1}: keep functions small, name things for what they do, and run npm test before proposing a change.`)].join('\n'))].join('\n\n');
writeFileSync(join(workspace, 'AGENTS.md'), AGENTS_MD);
writeFileSync(join(workspace, '.github', 'copilot-instructions.md'), 'Prefer TypeScript strict mode. Use the existing error types. Write tests next to the code.\n'.repeat(20));
let edits = 0;
/**
 * The tool of the editing loops: change one line of one of the three files. File access here and
 * in `depth`'s readers is synchronous: the loops' own cost is measured, not the thread pool's
 * scheduling on a loaded machine (which made runs differ tenfold).
 */
async function editFile(path, before) {
  if (before) await before(path);
  const full = join(workspace, path);
  const text = readFileSync(full, 'utf8');
  edits++;
  writeFileSync(full, text.replace(/line \d+\n/, `line edited ${edits}\n`));
}
const readOrUndefined = (path, encoding) => {
  const full = join(workspace, path);
  return Promise.resolve(existsSync(full) ? readFileSync(full, encoding) : undefined);
};

async function stratusLoop() {
  const mod = await import(task.adapter);
  const client = mod.createInferenceClient({ baseUrl: baseURL, apiKey: () => Promise.resolve('bench-key') });
  let rec;
  // Timestamps every delta as it is delivered; the same single callback the raw loop's sink is.
  const timed = {
    chatStream(req, opts) {
      const stream = client.chatStream(req, opts);
      return {
        consume: (onEvent) => stream.consume((e) => {
          if (e.type === 'tool_call_delta' || e.type === 'text') rec.current = now();
          onEvent?.(e);
        }),
      };
    },
  };
  const invoker = {
    invoke() {
      rec.toolStart.push(now());
      rec.lastDelta.push(rec.current);
      const result = { content: RESULT_TEXT };
      rec.toolDone.push(now());
      return Promise.resolve(result);
    },
  };
  return {
    async turn() {
      rec = recorder();
      const outcome = await mod.runAgent({ client: timed, model: 'bench', messages: [{ role: 'user', content: 'read it' }], tools: [TOOL], invoker, maxRounds: ROUNDS_PER_TURN + 2 });
      if (outcome.status !== 'answered' || outcome.rounds !== ROUNDS_PER_TURN + 1) throw new Error(`stratus loop ended ${outcome.status} after ${outcome.rounds} rounds`);
      return rec;
    },
    close: () => client.close(),
  };
}

/** Stratus' loop with instructions, compaction and checkpoints on, editing files like `client`. */
async function depthLoop() {
  const mod = await import(task.adapter);
  const client = mod.createInferenceClient({ baseUrl: baseURL, apiKey: () => Promise.resolve('bench-key') });
  const reader = {
    readFile: (path) => readOrUndefined(path, 'utf8'),
    listFiles: (dir) => Promise.resolve(existsSync(join(workspace, dir)) ? readdirSync(join(workspace, dir)) : []),
  };
  const files = { read: (path) => readOrUndefined(path).then((b) => (b === undefined ? undefined : new Uint8Array(b))) };
  const definitions = [{ type: 'function', function: TOOL }];
  const budget = { maxModelLen: 32_768, toolsTokens: mod.estimateToolsTokens(definitions), reserveTokens: 4_096 };
  const summaries = new mod.MemorySummaryStore();
  let rec;
  let turnNo = 0;
  const timed = {
    chatStream(req, opts) {
      const stream = client.chatStream(req, opts);
      return {
        consume: (onEvent) => stream.consume((e) => {
          if (e.type === 'tool_call_delta' || e.type === 'text') rec.current = now();
          onEvent?.(e);
        }),
      };
    },
  };
  return {
    async turn() {
      rec = recorder();
      turnNo++;
      const checkpoint = new mod.TurnRecorder(`turn-${turnNo}`, files);
      /** @type {string | undefined} */
      let section;
      const invoker = {
        async invoke() {
          rec.toolStart.push(now());
          rec.lastDelta.push(rec.current);
          await editFile(EDITED[rec.toolStart.length % EDITED.length], (path) => checkpoint.beforeChange(path));
          rec.toolDone.push(now());
          return { content: RESULT_TEXT };
        },
      };
      const outcome = await mod.runAgent({
        client: timed,
        model: 'bench',
        messages: [{ role: 'system', content: 'You are Stratus.' }, { role: 'user', content: 'edit it' }],
        tools: [TOOL],
        invoker,
        maxRounds: ROUNDS_PER_TURN + 2,
        prepareRequest: async (conversation) => {
          // As TurnDepth: instructions read once per turn (the extension also caches them across turns).
          section ??= (await mod.loadInstructions(reader, { trusted: true, contextFiles: EDITED }, budget.maxModelLen)).text;
          const [first, ...rest] = conversation;
          const messages = [{ role: 'system', content: `${first.content}\n\n${section}` }, ...rest];
          const plan = mod.planCompaction(messages, budget, { summaries: summaries.get('bench') });
          if (plan.action !== 'send') throw new Error(`compaction: ${plan.action}`);
          return { messages: plan.messages, maxTokens: budget.reserveTokens };
        },
      });
      if (outcome.status !== 'answered' || outcome.rounds !== ROUNDS_PER_TURN + 1) throw new Error(`depth loop ended ${outcome.status} after ${outcome.rounds} rounds`);
      const start = now();
      const made = await checkpoint.finish(Date.now());
      rec.turnEndMs = now() - start;
      if (made.files.length !== EDITED.length) throw new Error(`checkpoint of ${made.files.length} files`);
      if (!section || !section.includes('Rule 12.8')) throw new Error('instructions not sent');
      return rec;
    },
    close: () => client.close(),
  };
}

/** A minimal hand-written loop over Stratus' own inference client (no agent layer): isolates the loop. */
async function clientLoop() {
  const mod = await import(task.adapter);
  const client = mod.createInferenceClient({ baseUrl: baseURL, apiKey: () => Promise.resolve('bench-key') });
  const tools = [{ type: 'function', function: TOOL }];
  let rec;
  return {
    async turn() {
      rec = recorder();
      const messages = [{ role: 'user', content: 'read it' }];
      for (;;) {
        const result = await client.chatStream({ model: 'bench', messages, tools }).consume((e) => {
          if (e.type === 'tool_call_delta' || e.type === 'text') rec.current = now();
        });
        if (result.toolCalls.length === 0) break;
        messages.push(result.message);
        for (const c of result.toolCalls) {
          rec.toolStart.push(now());
          rec.lastDelta.push(rec.current);
          JSON.parse(c.function.arguments);
          await editFile(EDITED[rec.toolStart.length % EDITED.length]);
          const content = RESULT_TEXT;
          rec.toolDone.push(now());
          messages.push({ role: 'tool', tool_call_id: c.id, content });
        }
      }
      if (rec.toolStart.length !== ROUNDS_PER_TURN) throw new Error(`client loop ran ${rec.toolStart.length} tools`);
      return rec;
    },
    close: () => client.close(),
  };
}

async function rawLoop() {
  const dispatcher = new Agent();
  const url = `${baseURL}/chat/completions`;
  const tools = [{ type: 'function', function: TOOL }];
  let rec;
  async function stream(messages) {
    const { statusCode, body } = await request(url, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: 'Bearer bench-key' },
      body: JSON.stringify({ model: 'bench', messages, tools, stream: true }),
    });
    if (statusCode !== 200) throw new Error(`raw: HTTP ${statusCode}`);
    const utf8 = new TextDecoder();
    let buf = '';
    let text = '';
    const calls = [];
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
        if (delta.content) {
          text += delta.content;
          rec.current = now();
        }
        if (delta.tool_calls) for (const c of delta.tool_calls) {
          const slot = (calls[c.index] ??= { id: '', name: '', arguments: '' });
          if (c.id) slot.id = c.id;
          if (c.function?.name) slot.name = c.function.name;
          if (c.function?.arguments) slot.arguments += c.function.arguments;
          rec.current = now();
        }
      }
      buf = start === buf.length ? '' : buf.slice(start);
    }
    return { text, calls };
  }
  return {
    async turn() {
      rec = recorder();
      /** @type {Array<Record<string, unknown>>} */
      const messages = [{ role: 'user', content: 'read it' }];
      for (;;) {
        const { text, calls } = await stream(messages);
        if (calls.length === 0) break;
        messages.push({ role: 'assistant', content: null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) });
        for (const c of calls) {
          rec.toolStart.push(now());
          rec.lastDelta.push(rec.current);
          JSON.parse(c.arguments);
          const result = RESULT_TEXT;
          rec.toolDone.push(now());
          messages.push({ role: 'tool', tool_call_id: c.id, content: result });
        }
        if (text) void text;
      }
      if (rec.toolStart.length !== ROUNDS_PER_TURN) throw new Error(`raw loop ran ${rec.toolStart.length} tools`);
      return rec;
    },
    close: () => dispatcher.close(),
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const loop = task.client === 'stratus' ? await stratusLoop() : task.client === 'depth' ? await depthLoop() : task.client === 'client' ? await clientLoop() : await rawLoop();
const deltaToTool = [];
const resultToRequest = [];
const perRound = [];
const perRoundWithTool = [];
try {
  for (let t = 0; t < WARMUP_TURNS + TURNS; t++) {
    received = [];
    const rec = await loop.turn();
    if (t < WARMUP_TURNS) continue;
    // received[k] is the request of round k (0-based); the tool of round k runs before request k+1.
    for (let k = 0; k < rec.toolStart.length; k++) {
      const a = (rec.toolStart[k] ?? NaN) - (rec.lastDelta[k] ?? NaN);
      const b = (received[k + 1] ?? NaN) - (rec.toolDone[k] ?? NaN);
      deltaToTool.push(a);
      resultToRequest.push(b);
      perRound.push(a + b);
      // The tool's own time and the turn's end (the checkpoint), shared by its rounds, count here.
      perRoundWithTool.push(a + b + ((rec.toolDone[k] ?? NaN) - (rec.toolStart[k] ?? NaN)) + rec.turnEndMs / rec.toolStart.length);
    }
  }
} finally {
  await loop.close();
  server.close();
  rmSync(workspace, { recursive: true, force: true });
}
process.stdout.write(`RESULT ${JSON.stringify({ client: task.client, rounds: perRound.length, deltaToToolMs: median(deltaToTool), resultToRequestMs: median(resultToRequest), perRoundMs: median(perRound), perRoundWithToolMs: median(perRoundWithTool) })}\n`);
