// Issue 35, items 4 and 5: /plan (read-only tools, Implement and Save Plan), the stratus_todo list
// (one progress line, the list once at the end, kept across compaction) and the cost cap of a turn
// (stopped between rounds, Continue / Stop). Drives the real handler against the sandbox.
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { SUMMARY_INSTRUCTION } from '../../src/core/agent/compaction';
import { TodoList, type TodoItem } from '../../src/core/agent/todoList';
import { DEFAULT_USAGE_SETTINGS } from '../../src/core/usage/settings';
import type { UsageSnapshot } from '../../src/core/usage/summary';
import { AgentDepth } from '../../src/features/chat/agentDepth';
import { createHandler } from '../../src/features/chat/handler';
import type { TurnMetadata } from '../../src/features/chat/history';
import { Commands } from '../../src/features/commands';
import type { Deps } from '../../src/features/deps';
import { PLAN_COMMAND, planShape } from '../../src/features/plan/register';
import { READ_ONLY_TOOLS, SIDE_EFFECT_TOOLS, ToolNames } from '../../src/core/agent/toolNames';
import { TurnControl } from '../../src/features/chat/turnControl';
import { control, requests, sandbox } from './sandbox';
import { RecordingStream, testDeps } from './fakes';

type SentBody = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
interface Sent { status: number | null; body: SentBody }

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
}
async function sentAfter(seq: number): Promise<Sent[]> {
  return (await requests('/v1/chat/completions')).filter((r) => r.seq > seq).map((r) => ({ status: r.status, body: r.body?.json as SentBody }));
}
const systemOf = (body: SentBody | undefined): string => String(body?.messages[0]?.role === 'system' ? body.messages[0].content : '');
const isSummary = (s: Sent): boolean => systemOf(s.body) === SUMMARY_INSTRUCTION;

function request(prompt: string, modelId: string, command?: string): vscode.ChatRequest {
  return { prompt, command, references: [], toolReferences: [], toolInvocationToken: undefined, model: { vendor: 'stratus', id: modelId, maxInputTokens: 100_000 } } as unknown as vscode.ChatRequest;
}
function requestTurn(prompt: string, command?: string): vscode.ChatRequestTurn {
  return Object.assign(Object.create(vscode.ChatRequestTurn.prototype) as vscode.ChatRequestTurn, { prompt, command, participant: 'stratus.chat', references: [], toolReferences: [] });
}
function responseTurn(metadata: TurnMetadata): vscode.ChatResponseTurn {
  return Object.assign(Object.create(vscode.ChatResponseTurn.prototype) as vscode.ChatResponseTurn, { participant: 'stratus.chat', response: [], result: { metadata } });
}

describe('plan mode, the to-do list and the turn cost cap (against the sandbox)', function () {
  this.timeout(120_000);
  let deps: Deps;
  let depth: AgentDepth;
  let root: string;
  const disposables: vscode.Disposable[] = [];
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('stratus');

  before(() => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host opens a workspace folder');
    root = folder.uri.fsPath;
    writeFileSync(join(root, 'plan-notes.txt'), 'The build uses esbuild; tests use mocha.\n');
    const built = testDeps('Stratus plan mode test', sandbox().apiKey);
    deps = built.deps;
    depth = new AgentDepth(deps);
    // The shaper only: the extension under test has registered plan mode's commands already.
    disposables.push(...built.disposables, depth, deps.chatCommands.registerShaper({ command: PLAN_COMMAND, shape: (r) => Promise.resolve(planShape(r)) }));
  });
  after(async () => {
    for (const d of disposables) d.dispose();
    rmSync(join(root, 'plan-notes.txt'), { force: true });
    await settings().update('agent.maxTurnTokens', undefined, vscode.ConfigurationTarget.Global);
  });
  // The sandbox keeps whole strings of the bodies it records (system messages are long).
  beforeEach(() => control('/recorded-strings', { maxChars: 200_000 }));
  afterEach(async () => {
    await settings().update('agent.maxTurnTokens', undefined, vscode.ConfigurationTarget.Global);
    await control('/recorded-strings', { maxChars: 200 });
  });

  const run = async (req: vscode.ChatRequest, history: ReadonlyArray<vscode.ChatRequestTurn | vscode.ChatResponseTurn> = []): Promise<{ stream: RecordingStream; result: vscode.ChatResult; metadata: TurnMetadata & { plan?: boolean } }> => {
    const stream = new RecordingStream();
    const result = (await createHandler(deps, depth)(req, { history } as unknown as vscode.ChatContext, stream.asStream(), new vscode.CancellationTokenSource().token)) ?? {};
    return { stream, result, metadata: (result.metadata ?? {}) as TurnMetadata };
  };

  it('/plan offers read-only tools only, answers with the plan, keeps its to-do list, and ends with Implement and Save Plan', async () => {
    const before = await lastSeq();
    const prompt = 'plan: stratus_todo {"action": "add", "titles": ["Read the notes", "Write the summary"]} ; stratus_readFile {"path": "plan-notes.txt"}';
    const { stream, result, metadata } = await run(request(prompt, 'gpt-oss:120b', PLAN_COMMAND));
    assert.equal(result.errorDetails, undefined, stream.text);
    const sent = await sentAfter(before);
    assert.equal(sent.length, 3, 'three rounds');
    for (const s of sent) {
      const offered = (s.body.tools ?? []).map((t) => t.function.name);
      assert.ok(offered.includes(ToolNames.readFile) && offered.includes(ToolNames.todo), `offered: ${offered.join(', ')}`);
      assert.deepEqual(offered.filter((name) => SIDE_EFFECT_TOOLS.has(name)), [], 'no tool that writes, runs or changes the cloud');
      assert.deepEqual(offered.filter((name) => !Object.prototype.hasOwnProperty.call(READ_ONLY_TOOLS, name)), [], "none of VS Code's other tools");
      assert.match(systemOf(s.body), /Plan mode: the user wants a plan, not changes/);
    }
    assert.match(stream.text, /Tool result \(stratus_readFile\):[\s\S]*esbuild/);
    const [implement, save] = stream.buttons;
    assert.equal(implement?.command, Commands.implementPlan);
    assert.equal(save?.command, Commands.savePlan);
    assert.match(String(implement?.arguments?.[0]), /Tool result \(stratus_readFile\)/, 'the buttons carry the plan');
    assert.equal(save?.arguments?.[0], implement?.arguments?.[0]);
    assert.deepEqual(metadata.todo?.map((i) => i.title), ['Read the notes', 'Write the summary']);
    assert.equal(metadata.plan, true);
    assert.ok(stream.progress.some((p) => p.startsWith('To-do 0/2 done · ')), `progress: ${stream.progress.join(' | ')}`);
    assert.equal(stream.text.split('To-do list (0 of 2 done)').length - 1, 1, 'the list is shown once, at the end');
  });

  it('the to-do list shows one progress line per change (not the list) and refuses a bad call in words the model can use', async () => {
    const prompt = 'plan: stratus_todo {"action": "add", "titles": ["One", "Two"]} ; stratus_todo {"action": "start", "id": 2} ; stratus_todo {"action": "start", "id": 9} ; stratus_todo {"action": "complete", "id": 2}';
    const { stream, metadata } = await run(request(prompt, 'gpt-oss:120b'));
    // The line also carries the running tokens and cost: each change of either replaces it.
    const items = stream.progress.filter((p) => p.startsWith('To-do')).map((p) => p.split(' · ')[0]).filter((p, i, all) => p !== all[i - 1]);
    assert.deepEqual(items, ['To-do 0/2 done', 'To-do 2/2: Two', 'To-do 1/2 done']);
    assert.ok(stream.progress.every((p) => !p.includes('\n')), 'one line, never the whole list');
    assert.match(stream.text, /No item 9: the list has ids 1, 2/);
    assert.deepEqual(metadata.todo?.map((i) => i.status), ['pending', 'done']);
    assert.equal(stream.text.split('To-do list (1 of 2 done)').length - 1, 1);
  });

  it('the to-do list survives compaction: pinned to the system message once earlier messages are summarised, and carried on', async () => {
    const conversationId = 'conv-todo-compaction-01';
    const todo: TodoItem[] = [{ id: 1, title: 'Read the notes', status: 'in-progress' }, { id: 2, title: 'Write the summary', status: 'pending' }];
    const history: Array<vscode.ChatRequestTurn | vscode.ChatResponseTurn> = [];
    for (let t = 1; t <= 6; t++) {
      history.push(requestTurn(`question ${t}`), responseTurn({ model: 'qwen2.5-coder:7b', conversationId, messages: [{ role: 'assistant', content: `answer ${t}: ${'words '.repeat(2_000)}` }], ...(t === 6 ? { todo } : {}) }));
    }
    const before = await lastSeq();
    const { stream, result, metadata } = await run(request('plan: stratus_todo {"action": "complete", "id": 1}', 'qwen2.5-coder:7b'), history);
    assert.equal(result.errorDetails, undefined, stream.text);
    const sent = (await sentAfter(before)).filter((s) => !isSummary(s));
    assert.ok((await sentAfter(before)).some(isSummary), 'earlier messages were summarised');
    assert.equal(sent.length, 2, 'two rounds');
    assert.match(systemOf(sent[0]?.body), /<conversation-summary>/);
    assert.match(systemOf(sent[0]?.body), /Your to-do list .*\n1\. \[in-progress\] Read the notes\n2\. \[pending\] Write the summary/);
    assert.match(systemOf(sent[1]?.body), /1\. \[done\] Read the notes/, 'the pinned list follows the calls');
    assert.deepEqual(metadata.todo?.map((i) => i.status), ['done', 'pending']);
  });

  it('the cap stops a turn between rounds (its tools answered) and asks Continue / Stop; Continue doubles the next turn’s cap, Stop does not', async () => {
    await settings().update('agent.maxTurnTokens', 1_000, vscode.ConfigurationTarget.Global);
    const before = await lastSeq();
    const prompt = 'plan: stratus_readFile {"path": "plan-notes.txt"} *4';
    const { stream, result, metadata } = await run(request(prompt, 'gpt-oss:120b'));
    assert.equal(result.errorDetails, undefined);
    assert.equal((await sentAfter(before)).length, 1, 'no second round');
    assert.match(stream.text, /Stopped at the cost cap of this turn \(1 000 tokens\)/);
    assert.ok(metadata.capStop, 'the stop is in the metadata');
    assert.deepEqual(stream.buttons.map((b) => [b.command, b.arguments?.[0]]), [[Commands.continueTurn, metadata.capStop.id], [Commands.stopTurn, metadata.capStop.id]]);
    const roles = (metadata.messages ?? []).map((m) => m.role);
    assert.deepEqual(roles, ['assistant', 'tool'], 'the round’s tool ran to its end and is answered');
    assert.match(String(metadata.messages?.[1]?.content), /esbuild/);

    const history = [requestTurn(prompt), responseTurn(metadata)];
    const stopped = await run(request('Continue where you stopped.', 'gpt-oss:120b'), history);
    const capLine = (s: RecordingStream): string => s.progress.find((p) => p.startsWith('Turn cap')) ?? '';
    assert.match(capLine(stopped.stream), /^Turn cap: 1 000 tokens/, 'without Continue, the cap stays');

    depth.capGrants.grant(metadata.capStop.id);
    const continued = await run(request('Continue where you stopped.', 'gpt-oss:120b'), history);
    assert.match(capLine(continued.stream), /^Turn cap: 2 000 tokens/, 'Continue doubles it, once');
    const again = await run(request('Continue where you stopped.', 'gpt-oss:120b'), history);
    assert.match(capLine(again.stream), /^Turn cap: 1 000 tokens/);
  });

  it('Continue after a /plan turn stopped at its cap runs plan mode again (read-only tools, plan instructions), and the doubled cap counts what was used', async () => {
    await settings().update('agent.maxTurnTokens', 1_000, vscode.ConfigurationTarget.Global);
    const prompt = 'plan: stratus_readFile {"path": "plan-notes.txt"} *4';
    const first = await run(request(prompt, 'gpt-oss:120b', PLAN_COMMAND));
    assert.ok(first.metadata.capStop, first.stream.text);
    assert.match(first.stream.text, /Continue to carry on up to twice that cap in all \(what was used so far counts\)/);
    depth.capGrants.grant(first.metadata.capStop.id);
    const before = await lastSeq();
    const continued = await run(request('Continue where you stopped.', 'gpt-oss:120b'), [requestTurn(prompt, PLAN_COMMAND), responseTurn(first.metadata)]);
    assert.equal(continued.result.errorDetails, undefined, continued.stream.text);
    const sent = await sentAfter(before);
    assert.ok(sent.length >= 1);
    for (const s of sent) {
      const offered = (s.body.tools ?? []).map((t) => t.function.name);
      assert.ok(offered.includes(ToolNames.readFile), `offered: ${offered.join(', ')}`);
      assert.deepEqual(offered.filter((name) => !Object.prototype.hasOwnProperty.call(READ_ONLY_TOOLS, name)), [], 'plan mode\'s read-only tools only');
      assert.match(systemOf(s.body), /Plan mode: the user wants a plan, not changes/);
    }
    assert.equal(continued.metadata.plan, true);
    const capLine = continued.stream.progress.find((p) => p.startsWith('Turn cap')) ?? '';
    assert.match(capLine, /^Turn cap: 2 000 tokens[^·]* · [\d ]+ tokens used before Continue/, `the stopped turn's spend is carried: ${capLine} ${JSON.stringify(first.metadata.capStop)}`);
  });

  it('a continued turn starts from the stopped turn\'s spend: the raised cap is a total, not more on top', () => {
    const stream = new RecordingStream();
    const carried = { rounds: 1, promptTokens: 1_200, cachedTokens: 0, completionTokens: 100, reasoningTokens: 0 };
    const control = new TurnControl(stream.asStream(), new TodoList(), { maxTokens: 2_000, maxCostEur: undefined }, 2, undefined, carried);
    control.start();
    assert.match(stream.progress[0] ?? '', /^Turn cap: 2 000 tokens · 1 300 tokens used before Continue$/);
    control.onUsage({ promptTokens: 600, completionTokens: 100, totalTokens: 700 });
    assert.match(control.betweenRounds()?.stop ?? '', /it used 2 000 tokens/, '1 300 before Continue and 700 now reach the doubled cap');
    assert.deepEqual(control.stop?.spent, { rounds: 2, promptTokens: 1_800, cachedTokens: 0, completionTokens: 200, reasoningTokens: 0 });
    assert.equal(control.stop?.factor, 2);
  });

  it('says so at 80 % of the cap, and before a round that may pass the hourly allowance (fake meter)', () => {
    const stream = new RecordingStream();
    const snapshot = { hour: { used: 149_000, cap: 150_000, resetsAt: 0, resetsAtLabel: '15:00' }, day: { used: 149_000, cap: 3_600_000, resetsAt: 0, resetsAtLabel: '' } } as unknown as UsageSnapshot;
    const control = new TurnControl(stream.asStream(), new TodoList(), { maxTokens: 10_000, maxCostEur: undefined }, 1, { snapshot: () => snapshot, currentSettings: () => DEFAULT_USAGE_SETTINGS });
    control.start();
    assert.match(stream.progress[0] ?? '', /1 000 output tokens left this hour, 3 451 000 today/);
    control.onUsage({ promptTokens: 7_000, completionTokens: 1_500, totalTokens: 8_500 });
    assert.equal(control.betweenRounds(), undefined, 'below the cap: carry on');
    assert.match(stream.text, /used 85 % of its cap \(8 500 tokens, .* of 10 000 tokens\)/);
    assert.match(stream.text, /about 1 500 output tokens a round, 1 000 left this hour \(resets at 15:00\)/);
    const notes = stream.markdown.length;
    control.onUsage({ promptTokens: 1_000, completionTokens: 100, totalTokens: 1_100 });
    assert.equal(control.betweenRounds(), undefined);
    assert.equal(stream.markdown.length, notes, 'each note once per turn');
    control.onUsage({ promptTokens: 1_000, completionTokens: 100, totalTokens: 1_100 });
    assert.match(control.betweenRounds()?.stop ?? '', /Stopped at the cost cap/);
  });
});
