// Issue 19, parts 1 and 2: repository instructions in the @stratus system message, and compaction
// instead of silent truncation (a long turn on a 16k-context model, /compact). Drives the real
// handler directly (no Chat view), so it runs on VS Code 1.104 too.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { SUMMARY_INSTRUCTION } from '../../src/core/agent/compaction';
import { AgentDepth, SHOW_SUMMARY_COMMAND } from '../../src/features/chat/agentDepth';
import { createHandler } from '../../src/features/chat/handler';
import type { TurnMetadata } from '../../src/features/chat/history';
import type { Deps } from '../../src/features/deps';
import { control, eventually, requests, sandbox } from './sandbox';
import { stratus } from './extension';
import { RecordingStream, testDeps } from './fakes';

type SentBody = { messages: { role: string; content: unknown }[]; max_tokens?: number };
interface Sent { status: number | null; body: SentBody }

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
}
async function sentAfter(seq: number): Promise<Sent[]> {
  return (await requests('/v1/chat/completions')).filter((r) => r.seq > seq).map((r) => ({ status: r.status, body: r.body?.json as SentBody }));
}
const systemOf = (body: SentBody | undefined): string => String(body?.messages[0]?.role === 'system' ? body.messages[0].content : '');
const isSummary = (s: Sent): boolean => systemOf(s.body) === SUMMARY_INSTRUCTION;

function request(prompt: string, modelId: string, extra: Partial<vscode.ChatRequest> = {}): vscode.ChatRequest {
  return { prompt, command: undefined, references: [], toolReferences: [], toolInvocationToken: undefined, model: { vendor: 'stratus', id: modelId, maxInputTokens: 100_000 }, ...extra } as unknown as vscode.ChatRequest;
}
function requestTurn(prompt: string, command?: string): vscode.ChatRequestTurn {
  return Object.assign(Object.create(vscode.ChatRequestTurn.prototype) as vscode.ChatRequestTurn, { prompt, command, participant: 'stratus.chat', references: [], toolReferences: [] });
}
function responseTurn(metadata: TurnMetadata): vscode.ChatResponseTurn {
  return Object.assign(Object.create(vscode.ChatResponseTurn.prototype) as vscode.ChatResponseTurn, { participant: 'stratus.chat', response: [], result: { metadata } });
}

describe('agent depth: repository instructions and compaction (against the sandbox)', function () {
  this.timeout(120_000);
  let deps: Deps;
  let depth: AgentDepth;
  let root: string;
  const disposables: vscode.Disposable[] = [];
  const created: string[] = [];
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('stratus');

  before(() => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host opens a workspace folder');
    root = folder.uri.fsPath;
    const built = testDeps('Stratus agent depth test', sandbox().apiKey);
    deps = built.deps;
    depth = new AgentDepth(deps);
    disposables.push(...built.disposables, depth);
  });
  after(async () => {
    for (const d of disposables) d.dispose();
    for (const path of created) rmSync(join(root, path), { recursive: true, force: true });
    await settings().update('agent.useInstructionFiles', undefined, vscode.ConfigurationTarget.Global);
  });
  // The sandbox keeps whole strings of the bodies it records (system messages are long).
  beforeEach(() => control('/recorded-strings', { maxChars: 200_000 }));
  afterEach(async () => {
    await settings().update('agent.useInstructionFiles', undefined, vscode.ConfigurationTarget.Global);
    await control('/recorded-strings', { maxChars: 200 });
  });

  const write = (path: string, text: string): void => {
    const full = join(root, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, text);
    if (!created.includes(path.split('/')[0] ?? path)) created.push(path.split('/')[0] ?? path);
  };
  const run = async (req: vscode.ChatRequest, history: ReadonlyArray<vscode.ChatRequestTurn | vscode.ChatResponseTurn> = []): Promise<{ stream: RecordingStream; result: vscode.ChatResult }> => {
    const stream = new RecordingStream();
    const result = (await createHandler(deps, depth)(req, { history } as unknown as vscode.ChatContext, stream.asStream(), new vscode.CancellationTokenSource().token)) ?? {};
    return { stream, result };
  };
  const referencedPaths = (stream: RecordingStream): string[] => stream.references.filter((r): r is vscode.Uri => r instanceof vscode.Uri).map((u) => u.fsPath);

  it('AGENTS.md (root, and the nearest one above an attached file) goes into the system message, and the answer references it', async () => {
    write('AGENTS.md', 'Root rule: marker-root-7c1.\n');
    write('depthpkg/AGENTS.md', 'Package rule: marker-pkg-4e2.\n');
    write('depthpkg/src/main.ts', 'export const x = 1;\n');
    depth.instructions.clear();
    const before = await lastSeq();
    const attached = vscode.Uri.file(join(root, 'depthpkg', 'src', 'main.ts'));
    const { stream, result } = await run(request('hello with instructions', 'gpt-oss:120b', { references: [{ id: 'file', value: attached }] as unknown as vscode.ChatPromptReference[] }));
    assert.equal(result.errorDetails, undefined);
    const system = systemOf((await sentAfter(before))[0]?.body);
    assert.match(system, /marker-root-7c1/);
    assert.match(system, /marker-pkg-4e2/);
    assert.ok(system.indexOf('marker-root-7c1') < system.indexOf('marker-pkg-4e2'), 'the nearer AGENTS.md comes later');
    const refs = referencedPaths(stream);
    assert.ok(refs.includes(join(root, 'AGENTS.md')), `references: ${refs.join(', ')}`);
    assert.ok(refs.includes(join(root, 'depthpkg', 'AGENTS.md')));
    assert.equal(typeof (result.metadata as TurnMetadata).conversationId, 'string');
  });

  it('reads the files once (cached over turns), and again after they change (file watcher)', async () => {
    write('AGENTS.md', 'Root rule: marker-first-a91.\n');
    depth.instructions.clear();
    await run(request('first', 'gpt-oss:120b'));
    // A turn with no file event during it reads no file again. (It may read files the first did
    // not need: a tool it calls can touch other files, whose folders' instructions join the turn.
    // The watcher's event for the write above may still come, late under load: such a turn is
    // run again. The read log starts over at each clear, so it holds only what the cache holds.)
    await eventually(async () => {
      const { clears } = depth.instructions;
      const before = [...depth.instructions.readLog];
      await run(request('second', 'gpt-oss:120b'));
      // A clear between the turns (nothing cached yet) proves nothing: the next try has a turn before it.
      if (depth.instructions.clears !== clears || before.length === 0) return undefined;
      const again = depth.instructions.readLog.slice(before.length).filter((file) => before.includes(file));
      assert.deepEqual(again, [], 'a second turn reads no file again');
      return true;
    }, 'a turn with no file event during it');
    write('AGENTS.md', 'Root rule: marker-second-b82.\n');
    await eventually(async () => {
      const before = await lastSeq();
      await run(request('after the change', 'gpt-oss:120b'));
      return /marker-second-b82/.test(systemOf((await sentAfter(before))[0]?.body)) ? true : undefined;
    }, 'the changed AGENTS.md to be sent', 20_000);
  });

  it('stratus.agent.useInstructionFiles: false leaves the instructions out', async () => {
    write('AGENTS.md', 'Root rule: marker-off-c33.\n');
    depth.instructions.clear();
    await settings().update('agent.useInstructionFiles', false, vscode.ConfigurationTarget.Global);
    const before = await lastSeq();
    const { stream } = await run(request('hello without instructions', 'gpt-oss:120b'));
    assert.doesNotMatch(systemOf((await sentAfter(before))[0]?.body), /marker-off-c33/);
    assert.ok(!referencedPaths(stream).includes(join(root, 'AGENTS.md')));
  });

  it('instructions larger than their share of a small context are cut, and the answer says what was cut', async () => {
    write('AGENTS.md', `Root rule: marker-huge-d44.\n${'Keep this line in mind when editing.\n'.repeat(2000)}`);
    depth.instructions.clear();
    const before = await lastSeq();
    const { stream, result } = await run(request('hello on a small model', 'qwen2.5-coder:7b'));
    assert.equal(result.errorDetails, undefined);
    assert.match(systemOf((await sentAfter(before))[0]?.body), /marker-huge-d44[\s\S]*\[\.\.\. cut/);
    assert.match(stream.text, /Instructions cut to fit the model's context: AGENTS\.md: cut to ~[\d,]+ of ~[\d,]+ tokens/);
  });

  it('the note\'s button opens the summary in an untitled Markdown document', async () => {
    await stratus();
    await vscode.commands.executeCommand(SHOW_SUMMARY_COMMAND, 'The user asked for marker-summary-e55.', 3);
    const editor = await eventually(async () => (vscode.window.activeTextEditor?.document.getText().includes('marker-summary-e55') ? vscode.window.activeTextEditor : undefined), 'the summary document');
    assert.equal(editor.document.languageId, 'markdown');
    assert.equal(editor.document.isUntitled, true);
    assert.match(editor.document.getText(), /^# Summary of 3 earlier messages/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  const noInstructions = (): void => {
    rmSync(join(root, 'AGENTS.md'), { force: true });
    depth.instructions.clear();
  };

  it('a 15-round turn on a 16k-context model with ~20 KB tool results finishes without a context-length 400 (old results shortened first, summaries rare)', async () => {
    noInstructions();
    const line = `${'x'.repeat(96)}\n`;
    write('depthbig/big.txt', line.repeat(210));
    const before = await lastSeq();
    const { stream, result } = await run(request('plan: stratus_readFile {"path": "depthbig/big.txt"} *14', 'qwen2.5-coder:7b'));
    const sent = await sentAfter(before);
    assert.deepEqual(sent.filter((s) => s.status !== 200).map((s) => s.status), [], 'every request was accepted');
    assert.equal(result.errorDetails, undefined, stream.text);
    const summaries = sent.filter(isSummary).length;
    assert.ok(summaries <= 2, `shortening old results comes first: ${summaries} summary requests in 15 rounds`);
    assert.equal(sent.length - summaries, 15, 'fifteen rounds');
    const last = sent[sent.length - 1]?.body.messages ?? [];
    const results = last.filter((m) => m.role === 'tool').map((m) => String(m.content));
    assert.ok(results.slice(0, -1).some((r) => /Shortened to save context/.test(r)), 'old results are shortened');
    assert.ok(results.slice(0, -1).every((r) => r.length < (results[results.length - 1] ?? '').length), 'the latest result keeps the most');
    const kept = (result.metadata as TurnMetadata).messages?.find((m) => m.role === 'tool');
    assert.ok(kept && kept.content.length > 15_000 && !/Shortened to save context/.test(kept.content), 'the history keeps the whole results (shortened in requests only)');
  });

  it('a conversation whose earlier answers no longer fit a 16k model is summarised once, with the note and Show summary; the next turn reuses it', async () => {
    noInstructions();
    const conversationId = 'conv-long-text-0002';
    const history: Array<vscode.ChatRequestTurn | vscode.ChatResponseTurn> = [];
    for (let t = 1; t <= 6; t++) history.push(requestTurn(`question ${t}`), responseTurn({ model: 'qwen2.5-coder:7b', conversationId, messages: [{ role: 'assistant', content: `answer ${t}: ${'words '.repeat(2_000)}` }] }));
    const before = await lastSeq();
    const { stream, result } = await run(request('and now?', 'qwen2.5-coder:7b'), history);
    const sent = await sentAfter(before);
    assert.deepEqual(sent.map((s) => s.status), [200, 200]);
    assert.ok(isSummary(sent[0] as Sent), 'one summary request, then the answer');
    assert.match(systemOf(sent[1]?.body), /<conversation-summary>/);
    assert.match(stream.text, /Summarised \d+ earlier messages/);
    const button = stream.buttons.find((b) => b.command === SHOW_SUMMARY_COMMAND);
    assert.ok(button && typeof button.arguments?.[0] === 'string', 'the summary is one click away');

    const next = await lastSeq();
    await run(request('one more', 'qwen2.5-coder:7b'), [...history, requestTurn('and now?'), responseTurn(result.metadata as TurnMetadata)]);
    const after = await sentAfter(next);
    assert.equal(after.filter(isSummary).length, 0, `the stored summary is reused: ${after.filter(isSummary).map((a) => JSON.stringify(a.body.messages[1]?.content).slice(0, 300)).join(' | ')}`);
    assert.match(systemOf(after[0]?.body), /<conversation-summary>/);
  });

  it('/compact summarises the conversation in one request; the next turn reuses the summary without asking again', async () => {
    const conversationId = 'conv-compact-test-0001';
    const history = [
      requestTurn('first question'),
      responseTurn({ model: 'gpt-oss:120b', conversationId, messages: [{ role: 'assistant', content: 'first answer' }] }),
      requestTurn('second question'),
      responseTurn({ model: 'gpt-oss:120b', conversationId, messages: [{ role: 'assistant', content: 'second answer' }] }),
    ];
    const before = await lastSeq();
    const { stream, result } = await run(request('', 'gpt-oss:120b', { command: 'compact' }), history);
    const sent = await sentAfter(before);
    assert.equal(sent.length, 1);
    assert.ok(isSummary(sent[0] as Sent));
    assert.match(stream.text, /Summarised 4 earlier messages/);
    assert.ok(stream.buttons.some((b) => b.command === SHOW_SUMMARY_COMMAND));
    assert.deepEqual(result.metadata, { model: 'gpt-oss:120b', conversationId, compacted: true });

    const next = await lastSeq();
    await run(request('third question', 'gpt-oss:120b'), [...history, requestTurn('', 'compact'), responseTurn(result.metadata as TurnMetadata)]);
    const after = await sentAfter(next);
    assert.equal(after.length, 1, 'no new summary request');
    assert.match(systemOf(after[0]?.body), /<conversation-summary>/);
    assert.deepEqual(after[0]?.body.messages.map((m) => m.role), ['system', 'user']);
  });

  it('/compact with nothing earlier says so and sends nothing', async () => {
    const before = await lastSeq();
    const { stream } = await run(request('', 'gpt-oss:120b', { command: 'compact' }));
    assert.match(stream.text, /Nothing to summarise yet/);
    assert.equal((await sentAfter(before)).length, 0);
  });
});
