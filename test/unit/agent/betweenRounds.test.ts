import assert from 'node:assert/strict';
import { runAgent, StopTurn, type AgentModelClient, type ToolInvocation, type ToolInvoker } from '../../../src/core/agent';
import { addRound, capState, NO_SPEND, passesCostCap, requestCeiling, spendEur, type TurnSpend } from '../../../src/core/agent/turnBudget';
import type { ChatStream } from '../../../src/core/inference/chat/chat';
import type { ChatRequest, ChatResult, ChatStreamEvent, ToolCall } from '../../../src/core/inference/chat/types';

/** A model that asks for one `read` call per request, `rounds` times, then answers; each response reports 1 000 prompt and 100 output tokens. */
class FakeModel implements AgentModelClient {
  readonly requests: ChatRequest[] = [];
  constructor(private readonly toolRounds: number, private readonly reportsUsage = true) {}
  chatStream(request: ChatRequest): ChatStream {
    this.requests.push(request);
    const n = this.requests.length;
    const calls: ToolCall[] = n <= this.toolRounds ? [{ id: `call_${n}`, type: 'function', function: { name: 'read', arguments: '{}' } }] : [];
    const usage = { promptTokens: 1000, completionTokens: 100, totalTokens: 1100 };
    const result = { id: `r${n}`, model: request.model, created: 0, text: calls.length ? '' : 'done', thinking: '', toolCalls: calls, finishReason: calls.length ? 'tool_calls' : 'stop', usage, message: calls.length ? { role: 'assistant', content: null, tool_calls: calls } : { role: 'assistant', content: 'done' }, meta: {} } as unknown as ChatResult;
    const events: ChatStreamEvent[] = this.reportsUsage ? [{ type: 'usage', usage }] : [];
    if (!this.reportsUsage) (result as { usage: unknown }).usage = undefined;
    return {
      consume: (onEvent?: (event: ChatStreamEvent) => void) => {
        for (const e of events) onEvent?.(e);
        return Promise.resolve(result);
      },
      [Symbol.asyncIterator]: () => { throw new Error('not used'); },
    } as ChatStream;
  }
}

class RecordingInvoker implements ToolInvoker {
  running = 0;
  readonly ran: ToolInvocation[] = [];
  async invoke(invocation: ToolInvocation): Promise<{ content: string }> {
    this.running += 1;
    this.ran.push(invocation);
    await Promise.resolve();
    this.running -= 1;
    return { content: 'text' };
  }
}

const base = { model: 'fake', messages: [{ role: 'user' as const, content: 'go' }], tools: [{ name: 'read', description: 'read' }] };

describe('agent loop: the between-rounds hook (cost cap)', () => {
  it('is asked after each round’s tools, never while one runs, and its stop ends the turn with a valid history', async () => {
    const model = new FakeModel(5);
    const invoker = new RecordingInvoker();
    let spend: TurnSpend = NO_SPEND;
    const asked: Array<{ round: number; running: number; tools: number }> = [];
    const outcome = await runAgent({
      ...base,
      client: model,
      invoker,
      onEvent: (e) => { if (e.type === 'round_usage') spend = addRound(spend, e.usage); },
      betweenRounds: (round) => {
        asked.push({ round, running: invoker.running, tools: invoker.ran.length });
        // A cap of 3 000 tokens: reached after the third round (3 x 1 100).
        return capState(spend, { maxTokens: 3_000, maxCostEur: 100 }).level === 'reached' ? { stop: 'Cap reached.' } : undefined;
      },
    });
    assert.equal(outcome.status, 'stopped');
    assert.equal(outcome.message, 'Cap reached.');
    assert.deepEqual(asked, [{ round: 1, running: 0, tools: 1 }, { round: 2, running: 0, tools: 2 }, { round: 3, running: 0, tools: 3 }]);
    assert.equal(model.requests.length, 3, 'no fourth request');
    const calls = outcome.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []));
    const answered = outcome.messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
    assert.deepEqual(answered, calls, 'every call is answered');
  });

  it('carries on when the hook says nothing; not asked after the final answer', async () => {
    const model = new FakeModel(2);
    const rounds: number[] = [];
    const outcome = await runAgent({ ...base, client: model, invoker: new RecordingInvoker(), betweenRounds: async (round) => { rounds.push(round); return undefined; } });
    assert.equal(outcome.status, 'answered');
    assert.deepEqual(rounds, [1, 2]);
    assert.equal(model.requests.length, 3);
  });

  it('a throwing hook ends the turn as an error; an aborted signal as a cancellation', async () => {
    const failed = await runAgent({ ...base, client: new FakeModel(3), invoker: new RecordingInvoker(), betweenRounds: () => { throw new Error('meter broke'); } });
    assert.equal(failed.status, 'error');
    assert.match(String((failed.error as Error).message), /meter broke/);
    const controller = new AbortController();
    const cancelled = await runAgent({ ...base, client: new FakeModel(3), invoker: { invoke: () => { controller.abort(); return Promise.resolve({ content: 'x' }); } }, signal: controller.signal, betweenRounds: () => undefined });
    assert.equal(cancelled.status, 'cancelled');
  });

  it('every round reports its usage once: the server’s, or an estimate when it sent none', async () => {
    const reported: Array<{ round: number; total: number; estimated: boolean }> = [];
    await runAgent({ ...base, client: new FakeModel(1), invoker: new RecordingInvoker(), onEvent: (e) => { if (e.type === 'round_usage') reported.push({ round: e.round, total: e.usage.totalTokens, estimated: e.estimated }); } });
    assert.deepEqual(reported, [{ round: 1, total: 1100, estimated: false }, { round: 2, total: 1100, estimated: false }]);
    const estimates: Array<{ prompt: number; estimated: boolean }> = [];
    await runAgent({ ...base, client: new FakeModel(1, false), invoker: new RecordingInvoker(), onEvent: (e) => { if (e.type === 'round_usage') estimates.push({ prompt: e.usage.promptTokens, estimated: e.estimated }); } });
    assert.equal(estimates.length, 2);
    assert.ok(estimates.every((e) => e.estimated && e.prompt > 0), JSON.stringify(estimates));
  });
});

describe('agent loop: the before-request hook (cost cap checked before a round is paid)', () => {
  const answered = (messages: readonly { role: string; tool_call_id?: string; tool_calls?: { id: string }[] }[]): boolean => {
    const calls = messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []));
    return JSON.stringify(messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []))) === JSON.stringify(calls);
  };

  it('is asked with each request just before it is sent, the first included', async () => {
    const model = new FakeModel(2);
    const seen: Array<{ round: number; sentBefore: number; maxTokens: number | undefined }> = [];
    const outcome = await runAgent({ ...base, client: model, invoker: new RecordingInvoker(), maxTokens: 300, beforeRequest: (request, round) => { seen.push({ round, sentBefore: model.requests.length, maxTokens: request.max_tokens }); return undefined; } });
    assert.equal(outcome.status, 'answered');
    assert.deepEqual(seen, [{ round: 1, sentBefore: 0, maxTokens: 300 }, { round: 2, sentBefore: 1, maxTokens: 300 }, { round: 3, sentBefore: 2, maxTokens: 300 }]);
  });

  it('a stop before the first request sends nothing; a later one leaves a valid history and does not count the unsent round', async () => {
    const none = new FakeModel(3);
    const first = await runAgent({ ...base, client: none, invoker: new RecordingInvoker(), beforeRequest: () => ({ stop: 'Too dear.' }) });
    assert.deepEqual([first.status, first.message, first.rounds, first.messages.length, none.requests.length], ['stopped', 'Too dear.', 0, 0, 0]);
    const model = new FakeModel(5);
    const third = await runAgent({ ...base, client: model, invoker: new RecordingInvoker(), beforeRequest: (_request, round) => (round === 3 ? { stop: 'Too dear.' } : undefined) });
    assert.deepEqual([third.status, third.rounds, model.requests.length], ['stopped', 2, 2]);
    assert.ok(answered(third.messages), 'every call is answered');
  });

  it('a StopTurn thrown while preparing a round (a summary over the cap) stops the turn; another error is an error', async () => {
    const model = new FakeModel(3);
    const stopped = await runAgent({ ...base, client: model, invoker: new RecordingInvoker(), prepareRequest: (conversation, round) => { if (round === 2) throw new StopTurn('Summary too dear.'); return Promise.resolve({ messages: [...conversation] }); } });
    assert.deepEqual([stopped.status, stopped.message, stopped.rounds, model.requests.length], ['stopped', 'Summary too dear.', 1, 1]);
    assert.ok(answered(stopped.messages));
    const failed = await runAgent({ ...base, client: new FakeModel(3), invoker: new RecordingInvoker(), prepareRequest: () => Promise.reject(new Error('disk')) });
    assert.equal(failed.status, 'error');
  });

  it('with the cap checked before each request, the turn never spends past it (checked after a round only, it passed it by a whole round)', async () => {
    // Each round reports 1 000 prompt and 100 output tokens: 0.0026 EUR; every request asks for 100 tokens at most.
    const caps = { maxTokens: 5_000_000, maxCostEur: 0.006 };
    const run = async (before: boolean): Promise<{ eur: number; requests: number }> => {
      const model = new FakeModel(10);
      let spend: TurnSpend = NO_SPEND;
      await runAgent({
        ...base,
        messages: [{ role: 'user', content: 'x'.repeat(2_900) }],
        maxTokens: 100,
        client: model,
        invoker: new RecordingInvoker(),
        onEvent: (e) => { if (e.type === 'round_usage') spend = addRound(spend, e.usage); },
        ...(before ? { beforeRequest: (request) => (passesCostCap(spend, requestCeiling(request), caps) ? { stop: 'cap' } : undefined) } : {}),
        betweenRounds: () => (capState(spend, caps).level === 'reached' ? { stop: 'cap' } : undefined),
      });
      return { eur: spendEur(spend), requests: model.requests.length };
    };
    const after = await run(false);
    assert.ok(after.eur > caps.maxCostEur, `after-round check alone: ${after.eur} EUR in ${after.requests} requests`);
    const checked = await run(true);
    assert.ok(checked.eur <= caps.maxCostEur, `${checked.eur} EUR in ${checked.requests} requests`);
    assert.equal(checked.requests, 2);
  });
});
