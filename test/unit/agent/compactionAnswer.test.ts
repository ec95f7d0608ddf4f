// Issue 31, item 10: a summary answer that was cut (finish reason `length`, an unclosed <think>)
// or empty is never stored in place of the messages it was to replace; the request goes out
// without it (old results elided, those messages left out with a note) and the outcome says why.
import assert from 'node:assert/strict';
import { compactToFit, MemorySummaryStore, type CompactDeps, type CompactOutcome } from '../../../src/core/agent/compaction/index';
import { createInferenceClient, estimateMessageTokens, type ChatMessage, type InferenceClient } from '../../../src/core/inference/index';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { sendJson } from '../http/helpers/server';
import { startRig, type Rig } from '../inference/helpers/client';

const MODEL = 'gpt-oss:120b';
/** A 16k context planned client-side (the sandbox's model has more, so it takes every request). */
const BUDGET = { maxModelLen: 16_384, toolsTokens: 0, reserveTokens: 1_024 };

/** 30 turns of 2,000-character questions and answers (~30k tokens): only a summary makes it fit. */
function longConversation(first = 'Question'): ChatMessage[] {
  const turns = Array.from({ length: 30 }, (_, i): ChatMessage[] => [
    { role: 'user', content: `${i === 0 ? first : 'Question'} ${i}: ${'q'.repeat(2_000)}` },
    { role: 'assistant', content: `Answer ${i}: ${'a'.repeat(2_000)}` },
  ]);
  return [{ role: 'system', content: 'You are Stratus.' }, ...turns.flat(), { role: 'user', content: 'And now?' }];
}

const tokens = (messages: readonly ChatMessage[]): number => messages.reduce((a, m) => a + estimateMessageTokens(m), 0);

function sent(outcome: CompactOutcome): Extract<CompactOutcome, { kind: 'send' }> {
  assert.equal(outcome.kind, 'send', JSON.stringify(outcome).slice(0, 300));
  return outcome as Extract<CompactOutcome, { kind: 'send' }>;
}

/** What a summary-less request must look like: fits, no summary, the left-out messages said. */
function assertLeftOut(outcome: Extract<CompactOutcome, { kind: 'send' }>, store: MemorySummaryStore): void {
  assert.deepEqual(store.get('c1'), [], 'nothing stored');
  assert.equal(outcome.summariesMade, 0);
  assert.equal(outcome.plan.summarisedMessages, 0, 'not the "Summarised N earlier messages" note');
  assert.equal(outcome.plan.summary, undefined);
  const leftOut = outcome.plan.leftOutMessages ?? 0;
  assert.ok(leftOut > 0, 'messages were left out');
  const system = outcome.plan.messages[0];
  assert.ok(system?.role === 'system');
  assert.match(system.content, new RegExp(`${leftOut} earlier messages were left out of this conversation .*no summary of them could be made`));
  assert.doesNotMatch(system.content, /Summary of \d+ earlier message/);
  assert.ok(tokens(outcome.plan.messages) <= BUDGET.maxModelLen - BUDGET.reserveTokens);
  assert.equal(outcome.plan.messages.at(-1)?.content, 'And now?', 'the latest message is kept');
}

describe('compaction: a cut or empty summary is never stored (sandbox)', () => {
  let sandbox: Sandbox;
  let client: InferenceClient;
  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    client = createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey) });
  });
  after(async () => {
    await client.close();
    await sandbox.close();
  });

  const deps = (store: MemorySummaryStore): CompactDeps => ({
    store,
    conversationId: 'c1',
    summarise: (request) => client.chat({ model: MODEL, messages: request.messages, max_tokens: request.maxTokens }),
  });

  it('an answer cut at its max_tokens (finish reason length) is not stored: messages left out with their own note', async () => {
    // Asked for a verbose summary, the sandbox's model echoes the transcript: far longer than the summary's max_tokens.
    const store = new MemorySummaryStore();
    const outcome = sent(await compactToFit(longConversation('Give a verbose summary of question'), BUDGET, deps(store)));
    assert.equal(outcome.summaryFailed, 'cut');
    assertLeftOut(outcome, store);
    const summaryRequests = sandbox.control.requests({ pathPrefix: '/v1/chat/completions' }).length;
    assert.equal(summaryRequests, 1, 'one summary request, not one per planning step');
  });
});

describe('compaction: summary answers that are no summary', () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig();
  });
  after(() => rig.close());
  afterEach(() => rig.reset());

  const answering = (content: string, finish: string): void => {
    rig.handler = (_q, res) =>
      sendJson(res, 200, { id: 'chatcmpl-1', object: 'chat.completion', model: MODEL, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }] });
  };
  const deps = (store: MemorySummaryStore): CompactDeps => {
    const client = rig.client();
    return { store, conversationId: 'c1', summarise: (request) => client.chat({ model: MODEL, messages: request.messages, max_tokens: request.maxTokens }) };
  };

  it('an empty answer is not stored (it was stored as "(The model returned an empty summary.)")', async () => {
    answering('  \n', 'stop');
    const store = new MemorySummaryStore();
    const outcome = sent(await compactToFit(longConversation(), BUDGET, deps(store)));
    assert.equal(outcome.summaryFailed, 'empty');
    assertLeftOut(outcome, store);
  });

  it('an answer that stops inside an unclosed <think> is cut, not stored', async () => {
    answering('The user asked many questions. <think>Let me go through each of them in turn', 'stop');
    const store = new MemorySummaryStore();
    const outcome = sent(await compactToFit(longConversation(), BUDGET, deps(store)));
    assert.equal(outcome.summaryFailed, 'cut');
    assertLeftOut(outcome, store);
  });

  it('a whole answer is stored and applied with the usual note', async () => {
    answering('<think>short</think>The user asked thirty questions about q and got answers about a.', 'stop');
    const store = new MemorySummaryStore();
    const outcome = sent(await compactToFit(longConversation(), BUDGET, deps(store)));
    assert.equal(outcome.summaryFailed, undefined);
    assert.equal(outcome.summariesMade, 1);
    assert.equal(store.get('c1').length, 1);
    assert.equal(store.get('c1')[0]?.summary, 'The user asked thirty questions about q and got answers about a.');
    assert.ok(outcome.plan.summarisedMessages > 0);
    assert.equal(outcome.plan.leftOutMessages, undefined);
  });

  it('/compact (force) on a conversation that fits: a cut answer leaves it as it is, nothing stored', async () => {
    answering('A summary that ran out of room and', 'length');
    const store = new MemorySummaryStore();
    const short: ChatMessage[] = [{ role: 'system', content: 'S' }, { role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }, { role: 'user', content: 'again' }];
    const outcome = sent(await compactToFit(short, BUDGET, deps(store), { force: true }));
    assert.equal(outcome.summaryFailed, 'cut');
    assert.deepEqual(store.get('c1'), []);
    assert.deepEqual(outcome.plan.messages, short);
    assert.equal(outcome.plan.leftOutMessages, undefined);
  });
});
