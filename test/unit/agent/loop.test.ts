import assert from 'node:assert/strict';
import { runAgent, type AgentEvent, type AgentOptions, type AgentTool, type ToolInvocation, type ToolInvoker, type ToolOutcome } from '../../../src/core/agent';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import type { ChatMessage } from '../../../src/core/inference/chat/types';
import { startSandbox, type Sandbox, type SandboxProfile } from '../../sandbox/index';

const readFile: AgentTool = {
  name: 'read_file',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string', minLength: 1 } }, required: ['path'], additionalProperties: false },
};
const runTask: AgentTool = {
  name: 'run_task',
  description: 'Run a task',
  parameters: { type: 'object', properties: { task: { type: 'string' }, note: { type: 'string' } }, required: ['task'] },
};
const add: AgentTool = {
  name: 'add',
  description: 'Add two numbers',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
};
const TOOLS = [readFile, runTask, add];

/** An invoker with scripted tools that records what ran; `gate` holds run_task until released. */
class FakeInvoker implements ToolInvoker {
  readonly calls: ToolInvocation[] = [];
  readonly active = new Set<string>();
  maxConcurrent = 0;
  signals: AbortSignal[] = [];
  gate: Promise<void> | undefined;
  onStart: ((invocation: ToolInvocation) => void) | undefined;

  async invoke(invocation: ToolInvocation, signal: AbortSignal): Promise<ToolOutcome> {
    this.calls.push(invocation);
    this.signals.push(signal);
    this.active.add(invocation.callId);
    this.maxConcurrent = Math.max(this.maxConcurrent, this.active.size);
    this.onStart?.(invocation);
    try {
      if (this.gate) await this.gate;
      switch (invocation.name) {
        case 'read_file':
          if (invocation.input.path === 'missing.txt') return { content: 'Error: missing.txt does not exist.', isError: true };
          return { content: `contents of ${String(invocation.input.path)}`, references: [String(invocation.input.path)] };
        case 'run_task':
          return { content: `task ${String(invocation.input.task)} exited 0${invocation.input.note ? ` (note: ${String(invocation.input.note)})` : ''}` };
        case 'add':
          return { content: String(Number(invocation.input.a) + Number(invocation.input.b)) };
        default:
          return { content: 'unexpected', isError: true };
      }
    } finally {
      this.active.delete(invocation.callId);
    }
  }
}

const user = (content: string): ChatMessage => ({ role: 'user', content });

for (const profile of ['contract', 'production'] as SandboxProfile[]) {
  describe(`agent loop against the sandbox's scripted models (${profile})`, function () {
    let sandbox: Sandbox;
    let client: InferenceClient;

    before(async () => {
      sandbox = await startSandbox({ port: 0, profile });
      client = createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { baseDelayMs: 1, maxDelayMs: 5 } });
    });
    after(async () => {
      await client.close();
      await sandbox.close();
    });
    afterEach(() => sandbox.control.reset());

    const run = (prompt: string, invoker: ToolInvoker, extra: Partial<AgentOptions> = {}): Promise<ReturnType<typeof runAgent> extends Promise<infer T> ? T : never> =>
      runAgent({ client, model: 'gpt-oss:120b', messages: [user(prompt)], tools: TOOLS, invoker, ...extra });

    const sentBodies = (): { messages: { role: string; content: unknown; tool_call_id?: string; tool_calls?: unknown[] }[]; tools?: unknown[]; tool_choice?: unknown }[] =>
      sandbox.control.requests({ pathPrefix: '/v1/chat/completions' }).map((r) => r.body?.json as never);

    it('no tool asked: one round, the answer, and the turn messages', async () => {
      const invoker = new FakeInvoker();
      const outcome = await run('hello there', invoker);
      assert.equal(outcome.status, 'answered');
      assert.equal(outcome.text, 'Echo (gpt-oss:120b): hello there');
      assert.equal(outcome.rounds, 1);
      assert.equal(invoker.calls.length, 0);
      assert.deepEqual(outcome.messages, [{ role: 'assistant', content: 'Echo (gpt-oss:120b): hello there' }]);
    });

    it('a single call (arguments streamed in deltas): the result goes back as a tool message, then the answer', async () => {
      const invoker = new FakeInvoker();
      const events: AgentEvent[] = [];
      const outcome = await run('plan: read_file {"path": "docs/a very long file name.md"}', invoker, { onEvent: (e) => events.push(e) });
      assert.equal(outcome.status, 'answered');
      assert.equal(outcome.rounds, 2);
      assert.deepEqual(invoker.calls.map((c) => c.input), [{ path: 'docs/a very long file name.md' }]);
      assert.equal(outcome.text, 'Tool result (read_file): contents of docs/a very long file name.md');
      assert.deepEqual(outcome.references, ['docs/a very long file name.md']);
      const [assistant, tool, answer] = outcome.messages;
      assert.equal(assistant?.role, 'assistant');
      assert.ok(assistant?.role === 'assistant' && assistant.tool_calls?.length === 1);
      assert.equal(tool?.role === 'tool' ? tool.tool_call_id : undefined, assistant.tool_calls?.[0]?.id);
      assert.equal(answer?.role, 'assistant');
      // The second request carried the assistant call and its result, in order.
      const second = sentBodies()[1];
      assert.deepEqual(second?.messages.map((m) => m.role), ['user', 'assistant', 'tool']);
      assert.equal(second?.messages[2]?.content, 'contents of docs/a very long file name.md');
      assert.deepEqual(events.filter((e) => e.type !== 'text' && e.type !== 'usage' && e.type !== 'round_usage').map((e) => e.type), ['round', 'tool_pending', 'tool_start', 'tool_end', 'round']);
    });

    it('prepareRequest: called before each round with the whole conversation; what it returns is sent; a throw ends the turn', async () => {
      const seen: Array<[number, number]> = [];
      const outcome = await run('plan: read_file {"path": "a.txt"} ; read_file {"path": "b.txt"}', new FakeInvoker(), {
        maxTokens: 500,
        prepareRequest: async (conversation, round) => {
          seen.push([round, conversation.length]);
          return { messages: [{ role: 'system', content: `round ${round}` }, ...conversation], ...(round === 2 ? { maxTokens: 77 } : {}) };
        },
      });
      assert.equal(outcome.status, 'answered');
      assert.deepEqual(seen, [[1, 1], [2, 3], [3, 5]]);
      assert.deepEqual(sentBodies().map((b) => b.messages[0]?.content), ['round 1', 'round 2', 'round 3']);
      assert.deepEqual(sentBodies().map((b) => (b as { max_tokens?: number }).max_tokens), [500, 77, 500], 'a lower max_tokens applies to its round only');
      // The hook's messages are not kept: the turn's messages are the loop's own.
      assert.ok(outcome.messages.every((m) => m.role !== 'system'));
      const failing = await run('hello', new FakeInvoker(), { prepareRequest: () => Promise.reject(new Error('no room')) });
      assert.equal(failing.status, 'error');
      assert.equal((failing.error as Error).message, 'no room');
    });

    it('call A, then B with A\'s result, then answer (multi-round plan)', async () => {
      const invoker = new FakeInvoker();
      const outcome = await run('plan: read_file {"path": "notes.txt"} ; run_task {"task": "build", "note": "{{result}}"}', invoker);
      assert.equal(outcome.status, 'answered');
      assert.equal(outcome.rounds, 3);
      assert.deepEqual(invoker.calls.map((c) => [c.name, c.round]), [['read_file', 1], ['run_task', 2]]);
      assert.deepEqual(invoker.calls[1]?.input, { task: 'build', note: 'contents of notes.txt' });
      assert.equal(outcome.text, 'Tool result (read_file): contents of notes.txt\nTool result (run_task): task build exited 0 (note: contents of notes.txt)');
      assert.deepEqual(outcome.messages.map((m) => m.role), ['assistant', 'tool', 'assistant', 'tool', 'assistant']);
    });

    it('parallel calls of one round run concurrently and are answered in call order', async () => {
      const invoker = new FakeInvoker();
      let release!: () => void;
      invoker.gate = new Promise<void>((resolve) => (release = resolve));
      invoker.onStart = () => {
        if (invoker.active.size === 3) release();
      };
      const outcome = await run('plan: read_file {"path": "a"} & add {"a": 2, "b": 3} & run_task {"task": "t"}', invoker);
      assert.equal(outcome.status, 'answered');
      assert.equal(invoker.maxConcurrent, 3, 'all three ran at the same time');
      const second = sentBodies()[1];
      assert.deepEqual(second?.messages.slice(2).map((m) => m.content), ['contents of a', '5', 'task t exited 0']);
      const ids = second?.messages.slice(2).map((m) => m.tool_call_id);
      assert.equal(new Set(ids).size, 3);
    });

    it('malformed JSON arguments: not run, the model is told why and corrects itself', async () => {
      const invoker = new FakeInvoker();
      const outcome = await run('plan: read_file {path: notes.txt} ; read_file {"path": "notes.txt"}', invoker);
      assert.equal(outcome.status, 'answered');
      assert.equal(invoker.calls.length, 1, 'only the corrected call ran');
      const firstResult = outcome.messages[1];
      assert.ok(firstResult?.role === 'tool');
      assert.match(firstResult.content, /^Error: the arguments of 'read_file' are not valid JSON .*so it was not run/);
      assert.match(outcome.text, /Tool result \(read_file\): contents of notes.txt$/);
    });

    it('schema-violating arguments: the error names the property and the schema', async () => {
      const invoker = new FakeInvoker();
      const outcome = await run('plan: add {"a": "two", "b": 3} ; add {"a": 2, "b": 3}', invoker);
      assert.equal(outcome.status, 'answered');
      const firstResult = outcome.messages[1];
      assert.ok(firstResult?.role === 'tool');
      assert.match(firstResult.content, /do not match its schema \(input\/a: .*string.*number/i);
      assert.deepEqual(invoker.calls.map((c) => c.input), [{ a: 2, b: 3 }]);
      const missing = await run('plan: read_file {}', new FakeInvoker());
      assert.ok(missing.messages[1]?.role === 'tool');
      assert.match(String(missing.messages[1].content), /path/);
    });

    it('unknown tool, empty name and duplicate ids get explaining results; nothing unknown runs', async () => {
      const invoker = new FakeInvoker();
      const outcome = await run('plan: delete_everything {} & <empty> {} & add {"a":1,"b":1} @same & add {"a":2,"b":2} @same', invoker);
      assert.equal(outcome.status, 'answered');
      assert.deepEqual(invoker.calls.map((c) => c.input), [{ a: 1, b: 1 }]);
      const results = outcome.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
      assert.match(results[0] ?? '', /no tool named 'delete_everything'.*read_file, run_task, add/);
      assert.match(results[1] ?? '', /no function name/);
      assert.equal(results[2], '2');
      assert.match(results[3] ?? '', /repeats the id 'call_same'/);
      const assistant = outcome.messages[0];
      assert.ok(assistant?.role === 'assistant');
      const ids = assistant.tool_calls?.map((c) => c.id) ?? [];
      assert.equal(new Set(ids).size, 4, 'every call answered under its own id');
    });

    it('round limit: stops with a clear message and every call answered', async () => {
      const invoker = new FakeInvoker();
      const outcome = await run('plan: add {"a": 1, "b": 1} *10', invoker, { maxRounds: 4 });
      assert.equal(outcome.status, 'round_limit');
      assert.equal(outcome.rounds, 4);
      assert.equal(invoker.calls.length, 3);
      assert.match(outcome.message ?? '', /Stopped after 4 rounds.*stratus\.agent\.maxRounds/);
      assert.ok(outcome.messages.at(-1)?.role === 'tool');
      assert.match(String(outcome.messages.at(-1)?.content), /limit of 4 rounds/);
    });

    it('the same failing call three times stops the turn', async () => {
      const invoker = new FakeInvoker();
      const outcome = await run('plan: read_file {"path": "missing.txt"} *6', invoker);
      assert.equal(outcome.status, 'repeated_failure');
      assert.equal(invoker.calls.length, 3);
      assert.match(outcome.message ?? '', /`read_file` 3 times with the same arguments/);
      const invalid = await run('plan: add {"a": "x", "b": 1} *6', new FakeInvoker());
      assert.equal(invalid.status, 'repeated_failure', 'schema failures count too');
      assert.equal(invalid.rounds, 3);
    });

    it('cancellation during a tool returns at once, aborts the tool, and keeps a valid history', async () => {
      const invoker = new FakeInvoker();
      invoker.gate = new Promise<void>(() => undefined); // a tool that never finishes on its own
      const controller = new AbortController();
      invoker.onStart = () => controller.abort();
      const outcome = await run('plan: run_task {"task": "forever"}', invoker, { signal: controller.signal });
      assert.equal(outcome.status, 'cancelled');
      assert.equal(invoker.signals[0]?.aborted, true, 'the tool saw the abort');
      assert.deepEqual(outcome.messages.map((m) => m.role), ['assistant', 'tool']);
      assert.equal(sentBodies().length, 1, 'no request after the cancel');
    });

    it('cancellation during the stream stops it and keeps the partial text', async () => {
      sandbox.control.setLatency({ ms: 0, chunkDelayMs: 20, pathPrefix: '/v1/chat/completions' });
      const controller = new AbortController();
      let seen = 0;
      const outcome = await run('long 500', new FakeInvoker(), {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'text' && ++seen === 3) controller.abort();
        },
      });
      assert.equal(outcome.status, 'cancelled');
      assert.match(outcome.text, /^1 2 3/);
      assert.deepEqual(outcome.messages.map((m) => m.role), ['assistant']);
    });

    it('tool_choice is passed on the first round only; tools go out in function form', async () => {
      const invoker = new FakeInvoker();
      const outcome = await run('please', invoker, { toolChoice: { type: 'function', function: { name: 'add' } } });
      assert.equal(outcome.status, 'answered');
      const [first, second] = sentBodies();
      assert.deepEqual(first?.tool_choice, { type: 'function', function: { name: 'add' } });
      assert.equal(second?.tool_choice, 'auto');
      assert.equal((first?.tools as { type: string }[] | undefined)?.[0]?.type, 'function');
    });

    it('without tools no tools are sent and a plan is just text', async () => {
      const outcome = await run('plan: add {}', new FakeInvoker(), { tools: [] });
      assert.equal(outcome.status, 'answered');
      assert.equal(sentBodies()[0]?.tools, undefined);
      assert.match(outcome.text, /^Echo/);
    });

    it('a tool that throws becomes an error result, not a crash', async () => {
      const invoker: ToolInvoker = { invoke: () => Promise.reject(new Error('disk on fire')) };
      const outcome = await run('plan: add {"a": 1, "b": 2}', invoker);
      assert.equal(outcome.status, 'answered');
      assert.match(outcome.text, /Tool result \(add\): Error: 'add' failed: disk on fire/);
    });

    it('a huge result is cut with a note', async () => {
      const invoker: ToolInvoker = { invoke: () => Promise.resolve({ content: 'x'.repeat(5000) }) };
      const outcome = await run('plan: add {"a": 1, "b": 2}', invoker, { maxResultChars: 1000 });
      const tool = outcome.messages[1];
      assert.ok(tool?.role === 'tool');
      assert.ok(tool.content.length < 1300);
      assert.match(tool.content, /\[Truncated: the result had 5,000 characters/);
    });

    it('a request error ends the turn with the typed error and the rounds done so far', async () => {
      sandbox.control.burst({ status: 500, count: 10, pathPrefix: '/v1/chat/completions' });
      const outcome = await run('hello', new FakeInvoker());
      assert.equal(outcome.status, 'error');
      assert.ok(outcome.error instanceof Error);
    });
  });
}
