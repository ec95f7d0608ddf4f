// The cost cap of an @stratus turn checked before each request (the first included, compaction
// summaries included) and the to-do list pinned whenever compaction changed what is sent. Drives
// the real handler, TurnDepth and TurnControl against the sandbox.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { StopTurn } from '../../src/core/agent';
import { SUMMARY_INSTRUCTION } from '../../src/core/agent/compaction';
import { TodoList } from '../../src/core/agent/todoList';
import type { ChatMessage, Usage } from '../../src/core/inference/chat/types';
import type { ModelInfo } from '../../src/core/inference/models/types';
import { AgentDepth, TurnDepth } from '../../src/features/chat/agentDepth';
import { createHandler } from '../../src/features/chat/handler';
import type { TurnMetadata } from '../../src/features/chat/history';
import { Commands } from '../../src/features/commands';
import type { Deps } from '../../src/features/deps';
import { TurnControl } from '../../src/features/chat/turnControl';
import { requests, sandbox } from './sandbox';
import { RecordingStream, testDeps } from './fakes';

type SentBody = { messages: { role: string; content: unknown }[] };

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
}
async function sentAfter(seq: number): Promise<SentBody[]> {
  return (await requests('/v1/chat/completions')).filter((r) => r.seq > seq).map((r) => r.body?.json as SentBody);
}

const MODEL: ModelInfo = { id: 'gpt-oss:120b', kind: 'chat', created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen: 131072 };

function request(prompt: string): vscode.ChatRequest {
  return { prompt, references: [], toolReferences: [], toolInvocationToken: undefined, model: { vendor: 'stratus', id: MODEL.id, maxInputTokens: 100_000 } } as unknown as vscode.ChatRequest;
}

/** A conversation with earlier turns to summarise. */
function longConversation(): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: 'You are a helpful assistant.' }];
  for (let t = 1; t <= 4; t++) messages.push({ role: 'user', content: `question ${t}` }, { role: 'assistant', content: `answer ${t}: ${'words '.repeat(400)}` });
  messages.push({ role: 'user', content: 'And now?' });
  return messages;
}

describe('turn cost cap before each request, summaries counted, the to-do list pinned (against the sandbox)', function () {
  this.timeout(120_000);
  let deps: Deps;
  let depth: AgentDepth;
  const disposables: vscode.Disposable[] = [];
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('stratus');

  before(() => {
    const built = testDeps('Stratus turn cap test', sandbox().apiKey);
    deps = built.deps;
    depth = new AgentDepth(deps);
    disposables.push(...built.disposables, depth);
  });
  after(() => {
    for (const d of disposables) d.dispose();
  });
  afterEach(async () => {
    await settings().update('agent.maxTurnCostEur', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a cost cap the first request would pass stops the turn before anything is sent, with Continue / Stop', async () => {
    await settings().update('agent.maxTurnCostEur', 0.0001, vscode.ConfigurationTarget.Global);
    const before = await lastSeq();
    const stream = new RecordingStream();
    const result = (await createHandler(deps, depth)(request('What does this workspace build?'), { history: [] } as unknown as vscode.ChatContext, stream.asStream(), new vscode.CancellationTokenSource().token)) ?? {};
    const metadata = (result.metadata ?? {}) as TurnMetadata;
    assert.equal(result.errorDetails, undefined, stream.text);
    assert.deepEqual(await sentAfter(before), [], 'no request was sent');
    assert.match(stream.text, /Stopped before the next request: it may cost up to €0\.\d+, which with what this turn used \(0 tokens, €0\.00\) would pass its cost cap \(€0\.0001\)/);
    assert.ok(metadata.capStop, 'the stop is in the metadata');
    assert.deepEqual(stream.buttons.map((b) => [b.command, b.arguments?.[0]]), [[Commands.continueTurn, metadata.capStop.id], [Commands.stopTurn, metadata.capStop.id]]);
    assert.deepEqual(metadata.messages, []);
  });

  it('a compaction summary counts against the turn (its usage reported), and one that would pass the cap is never sent', async () => {
    const signal = new AbortController().signal;
    const spent: Usage[] = [];
    const counted = new TurnDepth(deps, depth, { conversationId: 'conv-cap-summary-counted', model: MODEL, stream: new RecordingStream().asStream(), signal });
    counted.summaryCosts = { before: () => undefined, spent: (usage) => void spent.push(usage) };
    let before = await lastSeq();
    await counted.prepare(longConversation(), { toolsTokens: 0, reserveTokens: 1_024 }, true);
    // The sandbox records the start of long strings only.
    const summaries = (await sentAfter(before)).filter((b) => String(b.messages[0]?.content).startsWith(SUMMARY_INSTRUCTION.slice(0, 80)));
    assert.equal(summaries.length, 1, 'one summary request');
    assert.equal(spent.length, 1, 'its usage is counted');
    assert.ok((spent[0]?.promptTokens ?? 0) > 0 && (spent[0]?.completionTokens ?? 0) > 0, JSON.stringify(spent));

    const refused = new TurnDepth(deps, depth, { conversationId: 'conv-cap-summary-refused', model: MODEL, stream: new RecordingStream().asStream(), signal });
    refused.summaryCosts = { before: () => ({ stop: 'Over the cap.' }), spent: (usage) => void spent.push(usage) };
    before = await lastSeq();
    await assert.rejects(refused.prepare(longConversation(), { toolsTokens: 0, reserveTokens: 1_024 }, true), (error: unknown) => error instanceof StopTurn && error.message === 'Over the cap.');
    assert.deepEqual(await sentAfter(before), [], 'the summary was not sent');
    assert.equal(spent.length, 1);
  });

  it('TurnControl: a summary’s usage shows in the running count and counts toward the cap; a request whose estimate would pass the cap is refused', () => {
    const stream = new RecordingStream();
    const control = new TurnControl(stream.asStream(), new TodoList(), { maxTokens: 5_000_000, maxCostEur: 0.02 }, 1, undefined);
    control.onSummaryUsage({ promptTokens: 5_000, completionTokens: 500, totalTokens: 5_500 }); // 0.013 EUR
    assert.match(stream.progress.at(-1) ?? '', /5 500 tokens, €0\.01/, 'shown before any round');
    assert.equal(control.beforeRequest({ model: MODEL.id, messages: [{ role: 'user', content: 'x'.repeat(300) }], max_tokens: 100 }), undefined, 'a small request fits');
    const stop = control.beforeRequest({ model: MODEL.id, messages: [{ role: 'user', content: 'x'.repeat(3_000) }], max_tokens: 1_000 });
    assert.match(stop?.stop ?? '', /may cost up to €0\.0098, which with what this turn used \(5 500 tokens, €0\.01\) would pass its cost cap \(€0\.02\)/);
    assert.ok(control.stop, 'Continue can find the stop');
    control.onSummaryUsage({ promptTokens: 5_000, completionTokens: 0, totalTokens: 5_000 });
    assert.match(control.betweenRounds()?.stop ?? '', /Stopped at the cost cap of this turn \(€0\.02\)/, 'summaries count toward the cap');
  });

  it('pins the to-do list when compaction only shortened earlier tool results (same count), not when nothing but the system message changed', () => {
    const todo = TodoList.from([{ id: 1, title: 'Read the notes', status: 'in-progress' }]);
    const control = new TurnControl(new RecordingStream().asStream(), todo, { maxTokens: 5_000_000, maxCostEur: undefined }, 1, undefined);
    const call = { id: 'c1', type: 'function' as const, function: { name: 'stratus_todo', arguments: '{"action":"add","titles":["Read the notes"]}' } };
    const conversation: ChatMessage[] = [
      { role: 'system', content: 'System.' },
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: 'c1', content: `Added. ${'list '.repeat(200)}` },
    ];
    const withInstructions: ChatMessage = { role: 'system', content: 'System.\n\nRepository instructions.' };
    const unchanged = [withInstructions, ...conversation.slice(1).map((m) => ({ ...m }))];
    assert.equal(control.pinTodo(conversation, unchanged), unchanged, 'only the instructions differ: not pinned (the prompt cache holds)');
    const shortened = [withInstructions, ...conversation.slice(1, 3), { role: 'tool' as const, tool_call_id: 'c1', content: '[Earlier result shortened]' }];
    assert.match(String(control.pinTodo(conversation, shortened)[0]?.content), /Repository instructions\.\n\nYour to-do list .*\n1\. \[in-progress\] Read the notes/);
    const leftOut = [withInstructions, conversation[1] as ChatMessage];
    assert.match(String(control.pinTodo(conversation, leftOut)[0]?.content), /Your to-do list/, 'messages left out: pinned, as before');
  });
});
