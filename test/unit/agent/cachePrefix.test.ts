import assert from 'node:assert/strict';
import { runAgent, type AgentTool, type ToolInvocation, type ToolInvoker, type ToolOutcome } from '../../../src/core/agent';
import type { FetchInit } from '../../../src/core/http/types';
import type { InferenceClient } from '../../../src/core/inference';
import type { UsageEvent, UsageEventOf } from '../../../src/core/usage/events';
import { createMeteredInferenceClient } from '../../../src/core/usage/meteredClient';
import { startSandbox, type Sandbox, type SandboxProfile } from '../../sandbox/index';

const readFile: AgentTool = {
  name: 'read_file',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string', minLength: 1 } }, required: ['path'], additionalProperties: false },
};
const add: AgentTool = {
  name: 'add',
  description: 'Add two numbers',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
};

const invoker: ToolInvoker = {
  invoke(invocation: ToolInvocation): Promise<ToolOutcome> {
    return Promise.resolve({ content: `contents of ${String(invocation.input.path)}` });
  },
};

interface SentBody { messages: unknown[]; tools?: unknown[] }

/** The serialized body up to (not including) the closing bracket of its `messages` array. */
function messagesPrefix(raw: string, body: SentBody): string {
  const head = raw.indexOf('"messages":[');
  assert.ok(head >= 0, 'messages is in the body');
  const inner = body.messages.map((m) => JSON.stringify(m)).join(',');
  const start = head + '"messages":['.length;
  assert.equal(raw.slice(start, start + inner.length), inner);
  return raw.slice(0, start + inner.length);
}

for (const profile of ['contract', 'production'] as SandboxProfile[]) {
  describe(`agent requests stay cache-friendly from round to round (${profile} sandbox)`, function () {
    let sandbox: Sandbox;
    let client: InferenceClient;
    let bodies: string[];
    let events: UsageEvent[];

    before(async () => {
      sandbox = await startSandbox({ port: 0, profile });
    });
    beforeEach(() => {
      bodies = [];
      events = [];
      client = createMeteredInferenceClient({
        baseUrl: sandbox.inferenceUrl,
        apiKey: () => Promise.resolve(sandbox.credentials.apiKey),
        retry: { baseDelayMs: 1, maxDelayMs: 5 },
        // A recording engine: the exact bytes each round sends.
        fetch: (url: string, init: FetchInit) => {
          if (url.endsWith('/chat/completions')) bodies.push(String(init.body));
          return fetch(url, init);
        },
        onUsage: (e) => events.push(e),
        usageNow: () => Date.UTC(2026, 3, 14, 10),
      });
    });
    afterEach(async () => {
      await client.close();
      sandbox.control.reset();
    });
    after(() => sandbox.close());

    it('sends each round as the previous round byte for byte (system message, tools, earlier turns) plus the new messages', async () => {
      const outcome = await runAgent({
        client,
        model: 'gpt-oss:120b',
        messages: [
          { role: 'system', content: 'You are Stratus. Answer briefly.' },
          { role: 'user', content: 'plan: read_file {"path": "a.txt"} ; read_file {"path": "b.txt"}' },
        ],
        tools: [readFile, add],
        toolChoice: 'auto',
        invoker,
      });
      assert.equal(outcome.status, 'answered');
      assert.ok(bodies.length >= 3, `three rounds at least, got ${bodies.length}`);
      for (let i = 1; i < bodies.length; i++) {
        const [before, after] = [bodies[i - 1] ?? '', bodies[i] ?? ''];
        const previous = JSON.parse(before) as SentBody;
        const next = JSON.parse(after) as SentBody;
        assert.ok(next.messages.length > previous.messages.length, 'the new round adds messages');
        const prefix = messagesPrefix(before, previous);
        assert.ok(after.startsWith(prefix), `round ${i + 1} starts with round ${i}'s bytes up to its new messages`);
        assert.equal(JSON.stringify(next.tools), JSON.stringify(previous.tools), 'tool definitions are byte-identical');
      }

      // The sandbox's prefix cache answers the later rounds with cached prompt tokens, and the meter
      // keeps them (a contract stream carries no usage unless asked: that profile's shape is
      // metered in test/unit/usage/cachedTokens.test.ts).
      if (profile === 'contract') return;
      const generations = events.filter((e): e is UsageEventOf<'chat'> => e.kind === 'chat');
      assert.equal(generations.length, bodies.length);
      assert.equal(generations[0]?.cachedTokens, undefined, 'nothing is cached on the first round');
      for (const later of generations.slice(1)) {
        assert.ok((later.cachedTokens ?? 0) > 0 && (later.cachedTokens ?? 0) <= later.promptTokens, JSON.stringify(later));
      }
    });
  });
}
