// Issue 32, sections 1, 2 and 5: the real @stratus handler, in an extension host, against the
// sandbox's family models. The agent finishes a two-tool task with each model that prints its tool
// calls as text or leaks harmony channels, and with two reasoning models at two efforts each (the
// request carries the effort the way the family takes it; reasoning is kept or dropped between
// rounds per family). `/model high` changes the effort, and the status bar shows it. Consecutive
// rounds of one turn share their bytes up to the new messages (the server's prompt cache).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { createHandler } from '../../src/features/chat/handler';
import type { Deps } from '../../src/features/deps';
import { createStatusBarItem } from '../../src/features/models/statusBar';
import { ToolNames } from '../../src/core/agent/toolNames';
import { ConnectionStatus } from '../../src/services/connectionStatus';
import { TextCallApprovals } from '../../src/services/textCallApprovals';
import { control, eventually, requests, sandbox } from './sandbox';
import { RecordingStream, testDeps } from './fakes';

const G = vscode.ConfigurationTarget.Global;
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('stratus');

interface SentMessage { role: string; content: unknown; tool_calls?: unknown[]; reasoning_content?: string }
interface SentBody { messages: SentMessage[]; tools?: unknown[]; reasoning_effort?: string; chat_template_kwargs?: Record<string, unknown> }

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
}
async function bodiesAfter(seq: number): Promise<SentBody[]> {
  return (await requests('/v1/chat/completions')).filter((r) => r.seq > seq).map((r) => r.body?.json as SentBody);
}

function chatRequest(prompt: string, modelId: string, command?: string): vscode.ChatRequest {
  return { prompt, command, references: [], toolReferences: [], toolInvocationToken: undefined, model: { vendor: 'stratus', id: modelId, maxInputTokens: 100_000 } } as unknown as vscode.ChatRequest;
}

/** read_file, then list_files: two rounds of tool calls, then the answer (the sandbox's scripted plan). */
const TWO_TOOL_TASK = `plan: ${ToolNames.readFile} {"path": "families/notes.txt"} ; ${ToolNames.listFiles} {"glob": "families/*.txt"}`;

/** Markup of calls printed as text or of harmony channels: never shown. */
const MARKUP = /<\||<tool_call>|\[TOOL_CALLS\]|"parameters"|<\/?think>/;

/** The user's answers to "Run a tool call read from the model's text?": each call asked about, and run. */
class AcceptingTextCalls extends TextCallApprovals {
  readonly asked: string[] = [];
  override confirmElsewhere(name: string): Promise<boolean> {
    this.asked.push(name);
    return Promise.resolve(true);
  }
}

describe('@stratus with every model family (against the sandbox)', function () {
  this.timeout(90_000);
  let deps: Deps;
  let textCalls: AcceptingTextCalls;
  let root: string;
  const disposables: vscode.Disposable[] = [];

  before(async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host opens a workspace folder');
    root = folder.uri.fsPath;
    mkdirSync(join(root, 'families'), { recursive: true });
    writeFileSync(join(root, 'families', 'notes.txt'), 'the family notes\n');
    const built = testDeps('Stratus model families test', sandbox().apiKey);
    // Calls read from a model's text are never run without asking (issue 40): here the user says Run.
    textCalls = new AcceptingTextCalls();
    deps = { ...built.deps, textCalls };
    disposables.push(...built.disposables);
    // Whole bodies: the prefix comparison needs every byte of the system message.
    await control('/recorded-strings', { maxChars: 200_000 });
  });
  after(async () => {
    for (const d of disposables.splice(0)) d.dispose();
    rmSync(join(root, 'families'), { recursive: true, force: true });
    await config().update('models.reasoningEffort', undefined, G);
    await control('/recorded-strings', { maxChars: 200 });
  });

  const run = async (request: vscode.ChatRequest): Promise<{ stream: RecordingStream; result: vscode.ChatResult }> => {
    const stream = new RecordingStream();
    const result = (await createHandler(deps)(request, { history: [] } as unknown as vscode.ChatContext, stream.asStream(), new vscode.CancellationTokenSource().token)) ?? {};
    return { stream, result };
  };

  /** Runs the two-tool task; checks it finished, showed no markup, and sent cache-friendly rounds. */
  const twoToolTask = async (modelId: string, shown?: (stream: RecordingStream) => void): Promise<SentBody[]> => {
    const before = await lastSeq();
    const { stream, result } = await run(chatRequest(TWO_TOOL_TASK, modelId));
    assert.equal(result.errorDetails, undefined, stream.text);
    assert.match(stream.text, /Tool result \(stratus_readFile\): File: families\/notes\.txt[^]*1: the family notes/, stream.text);
    assert.match(stream.text, /Tool result \(stratus_listFiles\): 1 file\(s\) matching "families\/\*\.txt":\nfamilies\/notes\.txt/, stream.text);
    assert.doesNotMatch(stream.text, MARKUP);
    shown?.(stream);
    const roles = ((result.metadata as { messages?: { role: string }[] } | undefined)?.messages ?? []).map((m) => m.role);
    assert.deepEqual(roles, ['assistant', 'tool', 'assistant', 'tool', 'assistant'], 'two tool rounds, then the answer');
    const bodies = await bodiesAfter(before);
    assert.equal(bodies.length, 3, 'one request per round');
    // Cache-friendly: each round is the previous one (system message, tools, earlier messages)
    // byte for byte, plus the new messages.
    for (let k = 1; k < bodies.length; k++) {
      const [previous, next] = [bodies[k - 1], bodies[k]];
      assert.ok(previous && next);
      assert.equal(JSON.stringify(next.tools), JSON.stringify(previous.tools), `round ${k + 1}: the same tool definitions`);
      assert.equal(JSON.stringify(next.messages.slice(0, previous.messages.length)), JSON.stringify(previous.messages), `round ${k + 1} starts with round ${k}'s messages`);
      assert.ok(next.messages.length > previous.messages.length);
    }
    return bodies;
  };

  for (const modelId of ['qwen2.5:7b', 'mistral-nemo:12b', 'llama3.1:8b', 'gpt-oss:20b-harmony']) {
    it(`${modelId} (tool calls printed as text): the agent finishes a two-tool task, each call read from text asked about first`, async () => {
      textCalls.asked.length = 0;
      const bodies = await twoToolTask(modelId);
      assert.deepEqual(textCalls.asked, ['stratus_readFile', 'stratus_listFiles'], 'each call read from the text was confirmed by the user before it ran');
      // The calls were recovered: the history sent back holds real tool_calls, not the markup.
      const assistants = (bodies[2]?.messages ?? []).filter((m) => m.role === 'assistant');
      assert.equal(assistants.length, 2);
      for (const m of assistants) {
        assert.equal(m.tool_calls?.length, 1);
        assert.doesNotMatch(String(m.content ?? ''), MARKUP);
      }
    });
  }

  it('gpt-oss:20b-harmony at effort low, then high: reasoning_effort is sent, and its reasoning goes back with its calls (the family keeps it)', async () => {
    const reasoningOf = async (effort: 'low' | 'high'): Promise<string[]> => {
      await config().update('models.reasoningEffort', { 'gpt-oss:20b-harmony': effort }, G);
      const bodies = await twoToolTask('gpt-oss:20b-harmony');
      for (const body of bodies) assert.equal(body.reasoning_effort, effort);
      return (bodies[2]?.messages ?? []).filter((m) => m.role === 'assistant').map((m) => m.reasoning_content ?? '');
    };
    const low = await reasoningOf('low');
    const high = await reasoningOf('high');
    assert.deepEqual(low, ['Answering. The user needs stratus_readFile.', 'Answering. The user needs stratus_listFiles.']);
    assert.ok(high.every((r, k) => r.length > (low[k] ?? '').length && r.startsWith('Answering from the script.')), high.join(' | '));
  });

  it('qwen3:8b at effort off, then high: chat_template_kwargs.enable_thinking is sent, and its reasoning is dropped between rounds (the family rejects it)', async () => {
    const thought = (expected: boolean) => (stream: RecordingStream): void => assert.equal(stream.progress.includes('Thinking…'), expected, stream.progress.join(', '));
    await config().update('models.reasoningEffort', { 'qwen3:8b': 'off' }, G);
    const off = await twoToolTask('qwen3:8b', thought(false));
    for (const body of off) {
      assert.deepEqual(body.chat_template_kwargs, { enable_thinking: false });
      assert.equal(body.reasoning_effort, undefined);
    }
    await config().update('models.reasoningEffort', { 'qwen3:8b': 'high' }, G);
    // The model reasons now (the chat shows it thinking), and none of it goes back.
    const high = await twoToolTask('qwen3:8b', thought(true));
    for (const body of high) assert.deepEqual(body.chat_template_kwargs, { enable_thinking: true });
    for (const m of high[2]?.messages ?? []) assert.equal(m.reasoning_content, undefined, 'no reasoning_content in the history');
  });

  it('`/model high` sets the effort of the model in use; the status bar shows it', async () => {
    await config().update('models.reasoningEffort', undefined, G);
    const previousModel = config().inspect<string>('chat.model')?.globalValue;
    await config().update('chat.model', 'gpt-oss:20b-harmony', G);
    const status = createStatusBarItem(new ConnectionStatus());
    try {
      assert.doesNotMatch(status.item.text, /effort/);
      const { stream } = await run(chatRequest('high', 'gpt-oss:20b-harmony', 'model'));
      assert.match(stream.text, /gpt-oss:20b-harmony.*effort \*\*high\*\*/);
      assert.deepEqual(config().inspect('models.reasoningEffort')?.globalValue, { 'gpt-oss:20b-harmony': 'high' });
      await eventually(async () => (/gpt-oss:20b-harmony · effort high/.test(status.item.text) ? true : undefined), `the status bar to show the effort (${status.item.text})`);
      const refused = await run(chatRequest('medium', 'qwen3:8b', 'model'));
      assert.match(refused.stream.text, /qwen3:8b.*off, high/, 'a family that only switches thinking on or off says so');
      await run(chatRequest('default', 'gpt-oss:20b-harmony', 'model'));
      assert.equal(config().inspect('models.reasoningEffort')?.globalValue, undefined);
      await eventually(async () => (/effort/.test(status.item.text) ? undefined : true), 'the status bar to drop the effort');
    } finally {
      status.dispose();
      await config().update('chat.model', previousModel, G);
    }
  });

  it('a model of no known family that the user marks as reasoning is sent its effort; a workspace can set neither', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const settingsFile = join(folder.uri.fsPath, '.vscode', 'settings.json');
    const previous = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
    try {
      // From the workspace: ignored (application scope).
      mkdirSync(join(folder.uri.fsPath, '.vscode'), { recursive: true });
      writeFileSync(settingsFile, JSON.stringify({
        'stratus.models.overrides': { 'mistral-nemo:12b': { reasoning: true } },
        'stratus.models.reasoningEffort': { 'mistral-nemo:12b': 'high', 'gpt-oss:20b-harmony': 'high' },
        // A window setting a workspace may set: tells us VS Code has read the file.
        'stratus.chat.model': 'families-marker',
      }));
      await eventually(async () => (config().get('chat.model') === 'families-marker' ? true : undefined), 'VS Code to read the workspace settings');
      let before = await lastSeq();
      await run(chatRequest('hello', 'mistral-nemo:12b'));
      await run(chatRequest('hello', 'gpt-oss:20b-harmony'));
      for (const body of await bodiesAfter(before)) assert.equal(body.reasoning_effort, undefined, 'a workspace sets no effort');

      // From the user: mistral-nemo is marked as reasoning, so it takes reasoning_effort.
      await config().update('models.overrides', { 'mistral-nemo:12b': { reasoning: true } }, G);
      await config().update('models.reasoningEffort', { 'mistral-nemo:12b': 'medium' }, G);
      before = await lastSeq();
      await run(chatRequest('hello', 'mistral-nemo:12b'));
      assert.deepEqual((await bodiesAfter(before)).map((b) => b.reasoning_effort), ['medium']);
      await config().update('models.overrides', undefined, G);
      before = await lastSeq();
      await run(chatRequest('hello', 'mistral-nemo:12b'));
      assert.deepEqual((await bodiesAfter(before)).map((b) => b.reasoning_effort), [undefined], 'unmarked, its family takes no effort');
    } finally {
      await config().update('models.overrides', undefined, G);
      await config().update('models.reasoningEffort', undefined, G);
      if (previous === undefined) rmSync(settingsFile, { force: true });
      else writeFileSync(settingsFile, previous);
      await eventually(async () => (config().get('chat.model') === 'families-marker' ? undefined : true), 'the workspace settings to be gone');
    }
  });
});
