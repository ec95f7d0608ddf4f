import assert from 'node:assert/strict';
import {
  completeSummary,
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

  it('16k context, 15 rounds of 20 KB tool results: no request ever exceeds the context', () => {
    const maxModelLen = 16_384;
    const b = budget(maxModelLen);
    const store = new MemorySummaryStore();
    const model = new FakeSummariser();
    const user: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'Refactor the parser' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] };
    const conversation: ChatMessage[] = [system, { role: 'user', content: 'earlier question' }, { role: 'assistant', content: 'earlier answer' }, user];
    let summarised = 0;
    for (let r = 1; r <= 15; r++) {
      conversation.push(...round(r, 20_000));
      const plan = prepare(conversation, b, store, model);
      assert.equal(plan.action, 'send');
      if (plan.action !== 'send') return;
      assert.ok(tokens(plan.messages) + b.toolsTokens + b.reserveTokens <= maxModelLen, `round ${r}: ${tokens(plan.messages)} tokens`);
      assert.equal(plan.promptTokens, tokens(plan.messages));
      assert.equal(plan.cutResults, 0, 'compaction, not cutting, made it fit');
      assert.ok(plan.messages.includes(user), 'the latest user message and its attachment are kept as they are');
      assert.deepEqual(plan.messages.slice(-2), conversation.slice(-2), 'the latest round is kept');
      assert.ok(plan.summarisedMessages >= summarised, 'the summary only grows');
      summarised = plan.summarisedMessages;
    }
    assert.ok(model.requests.length >= 1 && model.requests.length <= 15, `${model.requests.length} summary requests`);
    assert.ok(summarised >= 26, `${summarised} messages summarised`);
    // The next request of the same conversation reuses the stored summary: no new summary request.
    const before = model.requests.length;
    const again = prepare(conversation, b, store, model);
    assert.equal(again.action, 'send');
    assert.equal(model.requests.length, before);
  });

  it('summarises old tool results before old turns, and keeps earlier turns\' text while it can', () => {
    const maxModelLen = 16_384;
    const b = budget(maxModelLen);
    const conversation: ChatMessage[] = [system];
    for (let t = 0; t < 3; t++) conversation.push({ role: 'user', content: `question ${t}` }, ...round(t, 15_000), { role: 'assistant', content: `answer ${t}` });
    conversation.push({ role: 'user', content: 'latest question' });
    const plan = planCompaction(conversation, b);
    assert.equal(plan.action, 'summarise');
    if (plan.action !== 'summarise') return;
    const transcript = String(plan.request.messages[1]?.content);
    assert.match(transcript, /result 0/);
    assert.doesNotMatch(transcript, /question 0|answer 0|latest question/);
    const store = new MemorySummaryStore();
    const sent = prepare(conversation, b, store, new FakeSummariser());
    assert.equal(sent.action, 'send');
    if (sent.action !== 'send') return;
    const texts = sent.messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
    for (const kept of ['question 0', 'answer 0', 'question 2', 'answer 2', 'latest question']) assert.ok(texts.includes(kept), kept);
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
    const conversation: ChatMessage[] = [system, { role: 'user', content: 'q1' }, ...round(1, 45_000), { role: 'user', content: 'q2' }];
    prepare(conversation, b, store, new FakeSummariser());
    const edited: ChatMessage[] = [system, { role: 'user', content: 'q1' }, ...round(1, 45_001), { role: 'user', content: 'q2' }];
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
