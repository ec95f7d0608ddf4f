import assert from 'node:assert/strict';
import {
  completeSummary,
  ELIDED_HEAD_CHARS,
  elideResult,
  MemorySummaryStore,
  planCompaction,
  SUMMARY_INSTRUCTION,
  summaryMaxTokens,
  type CompactionBudget,
  type CompactionPlan,
  type SummaryRequest,
} from '../../../src/core/agent/compaction/index';
import { estimateMessageTokens, estimateToolsTokens, type ChatMessage, type ToolDefinition } from '../../../src/core/inference/index';

const tools: ToolDefinition[] = Array.from({ length: 11 }, (_, i) => ({
  type: 'function',
  function: { name: `tool_${i}`, description: `Tool number ${i} does a useful thing in the workspace.`, parameters: { type: 'object', properties: { path: { type: 'string' } } } },
}));

function budget(maxModelLen: number): CompactionBudget {
  return { maxModelLen, toolsTokens: estimateToolsTokens(tools), reserveTokens: 1024 };
}

const tokens = (messages: readonly ChatMessage[]): number => messages.reduce((a, m) => a + estimateMessageTokens(m), 0);

/** A fake model that answers a summary request with a summary that names what it saw. */
class FakeSummariser {
  requests: SummaryRequest[] = [];
  answer(request: SummaryRequest, maxModelLen: number): string {
    assert.ok(tokens(request.messages) + request.maxTokens <= maxModelLen, `summary request over the context: ${tokens(request.messages)} + ${request.maxTokens}`);
    assert.equal(request.messages[0]?.content, SUMMARY_INSTRUCTION);
    this.requests.push(request);
    return `Summary ${this.requests.length}: read files, found facts. ${'detail '.repeat(800)}`;
  }
}

/** Plans, answering summary requests with the fake model, until the plan is to send (or too large). */
function prepare(conversation: readonly ChatMessage[], b: CompactionBudget, store: MemorySummaryStore, model: FakeSummariser, force = false): CompactionPlan {
  let plan = planCompaction(conversation, b, { summaries: store.get('c1'), force });
  for (let i = 0; plan.action === 'summarise'; i++) {
    assert.ok(i < 3, 'summarising does not converge');
    store.put('c1', completeSummary(plan.pending, model.answer(plan.request, b.maxModelLen), b.maxModelLen));
    plan = planCompaction(conversation, b, { summaries: store.get('c1') });
  }
  return plan;
}

function round(n: number, size: number): ChatMessage[] {
  const id = `call_${n}`;
  return [
    { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'tool_1', arguments: `{"path":"src/file${n}.ts"}` } }] },
    { role: 'tool', tool_call_id: id, content: `result ${n}: ${'x'.repeat(size)}` },
  ];
}

const system: ChatMessage = { role: 'system', content: 'You are Stratus.' };

describe('agent compaction planner (fake model)', () => {
  it('sends a conversation that fits unchanged, with no summary request', () => {
    const conversation: ChatMessage[] = [system, { role: 'user', content: 'hi' }];
    const plan = planCompaction(conversation, budget(16_384));
    assert.equal(plan.action, 'send');
    assert.deepEqual(plan.action === 'send' && plan.messages, conversation);
  });

  it('16k context, 15 rounds of 20 KB tool results: every request fits by eliding old results, with no summary request', () => {
    const maxModelLen = 16_384;
    const b = budget(maxModelLen);
    const store = new MemorySummaryStore();
    const model = new FakeSummariser();
    const user: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'Refactor the parser' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] };
    const conversation: ChatMessage[] = [system, { role: 'user', content: 'earlier question' }, { role: 'assistant', content: 'earlier answer' }, user];
    for (let r = 1; r <= 15; r++) {
      conversation.push(...round(r, 20_000));
      const plan = prepare(conversation, b, store, model);
      assert.equal(plan.action, 'send');
      if (plan.action !== 'send') return;
      assert.ok(tokens(plan.messages) + b.toolsTokens + b.reserveTokens <= maxModelLen, `round ${r}: ${tokens(plan.messages)} tokens`);
      assert.equal(plan.promptTokens, tokens(plan.messages));
      assert.equal(plan.cutResults, 0, 'compaction, not cutting, made it fit');
      assert.ok(plan.messages.includes(user), 'the latest user message and its attachment are kept as they are');
      assert.deepEqual(plan.messages.slice(-2), conversation.slice(-2), 'the latest round is kept whole');
      assert.ok(plan.elidedResults >= r - 2, `round ${r}: the earlier results are shortened (${plan.elidedResults})`);
      const results = plan.messages.filter((m) => m.role === 'tool');
      const shortened = results.map((m) => /Shortened to save context/.test(m.content));
      assert.equal(shortened.filter(Boolean).length, plan.elidedResults);
      assert.deepEqual(shortened, [...shortened].sort((a, c) => Number(c) - Number(a)), 'the oldest results are shortened first');
      for (const m of results.filter((_, i) => shortened[i])) assert.ok(/^result \d+: x/.test(m.content) && m.content.length <= ELIDED_HEAD_CHARS + 200, 'an elided result keeps its beginning');
      assert.ok(plan.messages.some((m) => m.content === 'earlier answer'), 'earlier turns are kept while they fit');
    }
    assert.equal(model.requests.length, 0, 'no summary request in 15 rounds (the earlier planner made 14)');
    assert.equal(conversation.filter((m) => m.role === 'tool').every((m) => m.content.length > 20_000), true, 'the conversation itself keeps the whole results');
  });

  it('tight room (tool schemas take 7k of a 16k context): the latest result is cut to half the room, old ones shortened, summaries rare', () => {
    const maxModelLen = 16_384;
    const b: CompactionBudget = { maxModelLen, toolsTokens: 7000, reserveTokens: 4_096 };
    const limit = maxModelLen - b.toolsTokens - b.reserveTokens;
    const store = new MemorySummaryStore();
    const model = new FakeSummariser();
    const conversation: ChatMessage[] = [{ role: 'system', content: `You are Stratus. ${'Follow the repository rules. '.repeat(100)}` }, { role: 'user', content: 'Refactor the parser' }];
    for (let r = 1; r <= 15; r++) {
      conversation.push(...round(r, 20_000));
      const plan = prepare(conversation, b, store, model);
      assert.equal(plan.action, 'send');
      if (plan.action !== 'send') return;
      assert.ok(plan.promptTokens <= limit);
      const latest = plan.messages[plan.messages.length - 1];
      assert.ok(latest?.role === 'tool' && /characters of this result cut/.test(latest.content) && estimateMessageTokens(latest) <= limit / 2 + 64, 'the latest result is cut to half the room');
    }
    assert.ok(model.requests.length <= 2, `${model.requests.length} summary requests in 15 rounds (the earlier planner asked in every round)`);
  });

  it('over a 30-turn conversation a summary is rare: made when eliding is not enough, down to half the room, and reused by every later request', () => {
    const maxModelLen = 16_384;
    const b = budget(maxModelLen);
    const limit = maxModelLen - b.toolsTokens - b.reserveTokens;
    const store = new MemorySummaryStore();
    const model = new FakeSummariser();
    const conversation: ChatMessage[] = [system];
    let requests = 0;
    for (let t = 1; t <= 30; t++) {
      conversation.push({ role: 'user', content: `question ${t} `.repeat(20) });
      for (let r = 1; r <= 4; r++) {
        if (r < 4) conversation.push(...round(t * 10 + r, 20_000));
        const before = model.requests.length;
        const plan = prepare(conversation, b, store, model);
        requests++;
        assert.equal(plan.action, 'send');
        if (plan.action !== 'send') return;
        assert.ok(plan.promptTokens <= limit);
        assert.ok(model.requests.length - before <= 1, 'at most one summary request before a request');
        if (model.requests.length > before) {
          // Right after a summary the view leaves room for many rounds: the old ones are whole again or gone.
          assert.ok(plan.summarisedMessages > 0 && plan.elidedResults === 0, `turn ${t} round ${r}: ${plan.elidedResults} elided`);
        }
        // Planning the same conversation again (the next request, or a new turn over it) asks nothing.
        const again = model.requests.length;
        assert.equal(prepare(conversation, b, store, model).action, 'send');
        assert.equal(model.requests.length, again, 'a stored summary is reused, never recomputed');
      }
      conversation.push({ role: 'assistant', content: `answer ${t} `.repeat(100) });
    }
    assert.equal(requests, 120);
    assert.ok(model.requests.length >= 1 && model.requests.length <= 8, `${model.requests.length} summary requests for 120 requests`);
  });

  it('summarises old tool results before old turns, and keeps earlier turns\' text while it can', () => {
    const maxModelLen = 16_384;
    const b = budget(maxModelLen);
    const conversation: ChatMessage[] = [system];
    for (let t = 0; t < 150; t++) conversation.push({ role: 'user', content: `question ${t}` }, ...round(t, 15_000), { role: 'assistant', content: `answer ${t}` });
    conversation.push({ role: 'user', content: 'latest question' });
    const plan = planCompaction(conversation, b);
    assert.equal(plan.action, 'summarise');
    if (plan.action !== 'summarise') return;
    const transcript = String(plan.request.messages[1]?.content);
    assert.match(transcript, /result 0/);
    assert.doesNotMatch(transcript, /question 0\b|answer 0\b|latest question/);
    const store = new MemorySummaryStore();
    const sent = prepare(conversation, b, store, new FakeSummariser());
    assert.equal(sent.action, 'send');
    if (sent.action !== 'send') return;
    const texts = sent.messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
    for (const kept of ['question 0', 'answer 0', 'question 149', 'answer 149', 'latest question']) assert.ok(texts.includes(kept), kept);
    assert.ok(sent.promptTokens <= Math.floor((maxModelLen - b.toolsTokens - b.reserveTokens) * 0.5) + 1, `a big step: ${sent.promptTokens} tokens`);
    assert.match(String(sent.messages[0]?.content), /^You are Stratus\.\n\n<conversation-summary>\nSummary of \d+ earlier messages/);
    assert.ok(!sent.messages.some((m) => m.role === 'tool' && !sent.messages.some((a) => a.role === 'assistant' && a.tool_calls?.some((c) => c.id === m.tool_call_id))), 'no tool result without its call');
  });

  it('/compact forces one summary of everything but the latest message, then reuses it', () => {
    const b = budget(32_768);
    const conversation: ChatMessage[] = [system, { role: 'user', content: 'q1' }, ...round(1, 100), { role: 'assistant', content: 'a1' }, { role: 'user', content: 'q2' }];
    assert.equal(planCompaction(conversation, b).action, 'send');
    const store = new MemorySummaryStore();
    const model = new FakeSummariser();
    const plan = prepare(conversation, b, store, model, true);
    assert.equal(model.requests.length, 1);
    assert.equal(plan.action, 'send');
    if (plan.action !== 'send') return;
    assert.equal(plan.summarisedMessages, 4);
    assert.match(plan.summary ?? '', /^Summary 1/);
    assert.deepEqual(plan.messages.slice(1), [{ role: 'user', content: 'q2' }]);
  });

  it('a stored summary that no longer matches the conversation is not applied', () => {
    const b = budget(16_384);
    const store = new MemorySummaryStore();
    // A long text answer: elision (tool results only) cannot shorten it, a summary must.
    const conversation: ChatMessage[] = [system, { role: 'user', content: 'q1' }, { role: 'assistant', content: 'a'.repeat(45_000) }, { role: 'user', content: 'q2' }];
    const model = new FakeSummariser();
    prepare(conversation, b, store, model);
    assert.equal(model.requests.length, 1);
    const edited: ChatMessage[] = [system, { role: 'user', content: 'q1' }, { role: 'assistant', content: 'a'.repeat(45_001) }, { role: 'user', content: 'q2' }];
    const plan = planCompaction(edited, b, { summaries: store.get('c1') });
    assert.equal(plan.action, 'summarise');
  });

  it('cuts the latest round\'s results when they alone exceed the context; a huge user message is too-large', () => {
    const b = budget(16_384);
    const big: ChatMessage[] = [system, { role: 'user', content: 'q' }, ...round(1, 80_000)];
    const plan = planCompaction(big, b);
    assert.equal(plan.action, 'send');
    assert.ok(plan.action === 'send' && plan.cutResults === 1 && plan.promptTokens <= 16_384 - b.toolsTokens - b.reserveTokens);
    assert.match(plan.action === 'send' ? String(plan.messages[3]?.content) : '', /characters of this result cut/);
    const huge = planCompaction([system, { role: 'user', content: 'y'.repeat(60_000) }], b);
    assert.equal(huge.action, 'too-large');
  });

  it('elision keeps the beginning of a long result and says how much is not shown; short results stay whole', () => {
    const long: ChatMessage = { role: 'tool', tool_call_id: 'c1', content: `File: src/a.ts\n${'y'.repeat(5_000)}` };
    const out = elideResult(long);
    assert.equal(out.tool_call_id, 'c1');
    assert.ok(out.content.startsWith('File: src/a.ts\n'));
    assert.match(out.content, /4,775 more characters not shown; call the tool again if needed\.\]$/);
    const short: ChatMessage = { role: 'tool', tool_call_id: 'c2', content: 'ok' };
    assert.equal(elideResult(short), short);
  });

  it('a summary longer than asked for is capped; the store keeps the newest records', () => {
    const record = completeSummary({ covered: ['a'], messages: 2 }, 'z'.repeat(100_000), 16_384);
    assert.ok(record.summary.length <= summaryMaxTokens(16_384) * 3);
    const store = new MemorySummaryStore(2, 2);
    for (let i = 0; i < 3; i++) store.put('a', { ...record, messages: i });
    assert.deepEqual(store.get('a').map((r) => r.messages), [1, 2]);
    store.put('b', record);
    store.put('c', record);
    assert.deepEqual(store.get('a'), []);
    assert.equal(store.get('c').length, 1);
  });
});
