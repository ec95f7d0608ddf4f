// A streamed answer that breaks, against the sandbox's fault injection (both profiles): what
// arrived decides the error kind (interrupted vs could not answer), and the caller's own errors
// come back as themselves.
import assert from 'node:assert/strict';
import {
  InterruptedError,
  MalformedResponseError,
  NetworkError,
  StratusError,
  StreamStalledError,
} from '../../../src/core/errors';
import {
  createInferenceClient,
  type ChatRequest,
  type ChatStreamEvent,
  type InferenceClient,
  type InferenceClientOptions,
} from '../../../src/core/inference';
import { presentError } from '../../../src/core/presentError';
import { startSandbox, type Sandbox, type SandboxProfile } from '../../sandbox/index';

const long = (n: number): ChatRequest => ({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: `long ${n}` }] });
const toolAsk: ChatRequest = {
  model: 'gpt-oss:120b',
  tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
  messages: [{ role: 'user', content: 'Call get_weather with {"city":"Paris, France, a long way from here"}' }],
};

function visibleText(events: readonly ChatStreamEvent[]): string {
  return events.map((e) => (e.type === 'text' ? e.text : '')).join('');
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return assert.fail('expected a rejection');
}

/** Polls the sandbox's request log (no fixed sleeps). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.fail(`timed out waiting for ${what}`);
}

class CallerBug extends Error {}

for (const profile of ['contract', 'production'] as SandboxProfile[]) {
  describe(`inference/chat interruptions against the sandbox (${profile} profile)`, function () {
    let sandbox: Sandbox;
    const clients: InferenceClient[] = [];

    before(async () => {
      sandbox = await startSandbox({ port: 0, profile });
    });
    after(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await sandbox.close();
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      sandbox.control.reset();
    });

    function client(options: Partial<InferenceClientOptions> = {}): InferenceClient {
      const c = createInferenceClient({
        baseUrl: sandbox.inferenceUrl,
        apiKey: () => Promise.resolve(sandbox.credentials.apiKey),
        retry: { baseDelayMs: 1, maxDelayMs: 10 },
        ...options,
      });
      clients.push(c);
      return c;
    }

    const lastChat = (): ReturnType<Sandbox['control']['requests']>[number] | undefined =>
      sandbox.control.requests({ pathPrefix: '/v1/chat/completions' }).at(-1);

    describe('connection reset', () => {
      // Spaced events: what the client had read before the reset is not discarded with the socket.
      beforeEach(() => sandbox.control.setLatency({ ms: 0, chunkDelayMs: 10 }));

      it('after text arrived: InterruptedError (reset) with the network error as cause; the text stays delivered', async () => {
        sandbox.control.injectStreamFault({ kind: 'drop', afterChunks: 4 });
        const events: ChatStreamEvent[] = [];
        const error = await rejection(client().chatStream(long(20)).consume((e) => events.push(e)));
        assert.ok(error instanceof InterruptedError, String(error));
        assert.equal(error.kind, 'interrupted');
        assert.equal(error.reason, 'reset');
        assert.ok(error.cause instanceof NetworkError, 'the transport error is kept as the cause');
        assert.match(visibleText(events), /^1 (2 (3 )?)?$/, 'what arrived before the reset');
        const presented = presentError(error);
        assert.doesNotMatch(presented.message, /Cannot reach the service/);
        assert.match(presented.message, /cut off/);
        assert.ok(presented.actions.includes('retry'));
        assert.equal(lastChat()?.droppedByServer, true);
      });

      it('after tool-call deltas only: InterruptedError too', async () => {
        sandbox.control.injectStreamFault({ kind: 'drop', afterChunks: 3 });
        const events: ChatStreamEvent[] = [];
        const error = await rejection(client().chatStream(toolAsk).consume((e) => events.push(e)));
        assert.ok(events.some((e) => e.type === 'tool_call_delta'), 'a tool-call fragment had arrived');
        assert.equal(visibleText(events), '');
        assert.ok(error instanceof InterruptedError, String(error));
        assert.equal(error.reason, 'reset');
      });

      it('before any visible text (only the role chunk): the network error itself, "cannot reach"', async () => {
        sandbox.control.injectStreamFault({ kind: 'drop', afterChunks: 1 });
        const events: ChatStreamEvent[] = [];
        const error = await rejection(client().chatStream(long(20)).consume((e) => events.push(e)));
        assert.ok(error instanceof NetworkError, String(error));
        assert.deepEqual(events, []);
      });

      it('through the async iterator: the same InterruptedError', async () => {
        sandbox.control.injectStreamFault({ kind: 'drop', afterChunks: 4 });
        const events: ChatStreamEvent[] = [];
        const error = await rejection((async () => {
          for await (const e of client().chatStream(long(20))) events.push(e);
        })());
        assert.ok(error instanceof InterruptedError, String(error));
        assert.match(visibleText(events), /^1 /);
      });
    });

    describe('stall', () => {
      it('after text arrived: InterruptedError (stalled), cause StreamStalledError', async () => {
        sandbox.control.injectStreamFault({ kind: 'stall', afterChunks: 3 });
        const events: ChatStreamEvent[] = [];
        const error = await rejection(client({ timeouts: { idleMs: 150 } }).chatStream(long(20)).consume((e) => events.push(e)));
        assert.ok(error instanceof InterruptedError, String(error));
        assert.equal(error.reason, 'stalled');
        assert.ok(error.cause instanceof StreamStalledError);
        assert.equal(visibleText(events), '1 2 ');
        assert.match(presentError(error).message, /stopped arriving|went silent/);
        await until(() => lastChat()?.clientClosedEarly === true, 'the client to hang up');
      });

      it('before any text: StreamStalledError, and the message does not claim a partial answer', async () => {
        sandbox.control.injectStreamFault({ kind: 'stall', afterChunks: 1 });
        const events: ChatStreamEvent[] = [];
        const error = await rejection(client({ timeouts: { idleMs: 150 } }).chatStream(long(20)).consume((e) => events.push(e)));
        assert.ok(error instanceof StreamStalledError, String(error));
        assert.deepEqual(events, []);
        const message = presentError(error).message;
        assert.doesNotMatch(message, /kept|above|partial/i);
        assert.match(message, /before any of the answer arrived/);
      });
    });

    describe('truncated body (ends in the middle of an event, no [DONE])', () => {
      it('after text arrived: InterruptedError (ended)', async () => {
        sandbox.control.injectStreamFault({ kind: 'truncate', afterChunks: 3 });
        const events: ChatStreamEvent[] = [];
        const error = await rejection(client().chatStream(long(20)).consume((e) => events.push(e)));
        assert.ok(error instanceof InterruptedError, String(error));
        assert.equal(error.reason, 'ended');
        assert.equal(visibleText(events), '1 2 ');
      });

      it('before any text: MalformedResponseError (nothing to keep)', async () => {
        sandbox.control.injectStreamFault({ kind: 'truncate', afterChunks: 1 });
        const error = await rejection(client().chatStream(long(20)).consume());
        assert.ok(error instanceof MalformedResponseError, String(error));
      });
    });

    describe("the caller's onEvent throws", () => {
      beforeEach(() => sandbox.control.setLatency({ ms: 0, chunkDelayMs: 5 }));

      it('rejects with the same error object and closes the connection', async () => {
        const bug = new CallerBug('the renderer failed');
        let n = 0;
        const error = await rejection(client().chatStream(long(200)).consume((e) => {
          if (e.type === 'text' && ++n === 3) throw bug;
        }));
        assert.equal(error, bug, 'the very error the callback threw');
        assert.ok(!(error instanceof StratusError));
        await until(() => lastChat()?.clientClosedEarly === true, 'the client to hang up');
      });

      it('a StratusError thrown by the callback is not turned into an interruption', async () => {
        const own = new MalformedResponseError('caller-side validation');
        const error = await rejection(client().chatStream(long(20)).consume((e) => {
          if (e.type === 'text') throw own;
        }));
        assert.equal(error, own);
      });

      it('an error thrown on the final done event comes back as itself too', async () => {
        const bug = new CallerBug('done handler failed');
        const error = await rejection(client().chatStream(long(3)).consume((e) => {
          if (e.type === 'done') throw bug;
        }));
        assert.equal(error, bug);
      });
    });
  });
}
