// Drives the @stratus handler directly with requests VS Code cannot script from outside
// (attachments, a chosen model), against the sandbox, with real VS Code documents and URIs.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Redactor } from '../../src/core/http/redact';
import { silentLogger } from '../../src/core/log';
import { createHandler } from '../../src/features/chat/handler';
import type { Deps } from '../../src/features/deps';
import { ChatCommandRegistry } from '../../src/platform/chatCommands';
import { ConnectionStatus } from '../../src/platform/connectionStatus';
import { ConsoleConnection } from '../../src/platform/consoleConnection';
import { InferenceConnection } from '../../src/platform/inferenceConnection';
import { SecretKeys, SecretStore } from '../../src/platform/secrets';
import { readSettings } from '../../src/platform/settings';
import { control, requests, sandbox } from './sandbox';

class RecordingStream {
  readonly markdown: string[] = [];
  readonly buttons: vscode.Command[] = [];
  readonly references: unknown[] = [];
  readonly progress: string[] = [];
  get text(): string {
    return this.markdown.join('');
  }
  asStream(): vscode.ChatResponseStream {
    return {
      markdown: (value: string | vscode.MarkdownString) => { this.markdown.push(typeof value === 'string' ? value : value.value); },
      button: (command: vscode.Command) => { this.buttons.push(command); },
      reference: (value: unknown) => { this.references.push(value); },
      progress: (value: string) => { this.progress.push(value); },
      anchor: () => undefined,
      filetree: () => undefined,
      push: () => undefined,
    } as unknown as vscode.ChatResponseStream;
  }
}

function memorySecrets(apiKey: string): vscode.SecretStorage {
  const values = new Map<string, string>([[SecretKeys.inferenceApiKey, apiKey]]);
  const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  return {
    get: async (key: string) => values.get(key),
    store: async (key: string, value: string) => { values.set(key, value); },
    delete: async (key: string) => { values.delete(key); },
    onDidChange: changed.event,
  };
}

function request(prompt: string, modelId: string, references: vscode.ChatPromptReference[] = []): vscode.ChatRequest {
  return { prompt, command: undefined, references, toolReferences: [], model: { vendor: 'stratus', id: modelId, maxInputTokens: 100_000 } } as unknown as vscode.ChatRequest;
}

describe('@stratus handler with attachments (against the sandbox)', function () {
  this.timeout(30_000);
  let deps: Deps;
  const disposables: vscode.Disposable[] = [];

  before(() => {
    const redactor = new Redactor();
    const logChannel = vscode.window.createOutputChannel('Stratus handler test', { log: true });
    const secrets = new SecretStore(memorySecrets(sandbox().apiKey), redactor);
    const inference = new InferenceConnection(secrets, silentLogger);
    const connectionStatus = new ConnectionStatus();
    const consoleConnection = new ConsoleConnection(secrets, silentLogger);
    disposables.push(logChannel, inference, connectionStatus, consoleConnection);
    deps = { logger: silentLogger, logChannel, redactor, secrets, settings: readSettings, inference, console: consoleConnection, connectionStatus, chatCommands: new ChatCommandRegistry() };
  });
  after(async () => {
    for (const d of disposables) d.dispose();
    await control('/reset', {});
  });

  const run = async (req: vscode.ChatRequest): Promise<{ stream: RecordingStream; result: vscode.ChatResult }> => {
    const stream = new RecordingStream();
    const result = (await createHandler(deps)(req, { history: [] } as unknown as vscode.ChatContext, stream.asStream(), new vscode.CancellationTokenSource().token)) ?? {};
    return { stream, result };
  };

  it('sends earlier turns as history: stored messages (tool rounds included) first, else the rendered answer', async () => {
    // The turn classes have private constructors: build instances the way VS Code hands them over.
    const turn = <T extends object>(cls: { prototype: T }, fields: Record<string, unknown>): T => Object.assign(Object.create(cls.prototype) as T, fields);
    const history = [
      turn(vscode.ChatRequestTurn, { prompt: 'first question', participant: 'stratus.chat', references: [], toolReferences: [] }),
      turn(vscode.ChatResponseTurn, { participant: 'stratus.chat', response: [], result: { metadata: { model: 'gpt-oss:120b', messages: [
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'looked up' },
        { role: 'assistant', content: 'first answer' },
      ] } } }),
      turn(vscode.ChatRequestTurn, { prompt: 'to another participant', participant: 'someone.else', references: [], toolReferences: [] }),
      turn(vscode.ChatRequestTurn, { prompt: 'second question', participant: 'stratus.chat', references: [], toolReferences: [] }),
      turn(vscode.ChatResponseTurn, { participant: 'stratus.chat', response: [new vscode.ChatResponseMarkdownPart('<think>hidden</think>second answer')], result: {} }),
    ];
    const before = Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
    const stream = new RecordingStream();
    await createHandler(deps)(request('third question', 'gpt-oss:120b'), { history } as unknown as vscode.ChatContext, stream.asStream(), new vscode.CancellationTokenSource().token);
    assert.equal(stream.text, 'Echo (gpt-oss:120b): third question');
    const sent = (await requests('/v1/chat/completions')).find((r) => r.seq > before)?.body?.json as { messages: { role: string; content: unknown }[] };
    assert.deepEqual(sent.messages.map((m) => [m.role, m.content]), [
      ['system', sent.messages[0]?.content],
      ['user', 'first question'],
      ['assistant', null],
      ['tool', 'looked up'],
      ['assistant', 'first answer'],
      ['user', 'second question'],
      ['assistant', 'second answer'],
      ['user', 'third question'],
    ]);
  });

  it('sends an attached file and a selection as context and lists them as references', async () => {
    const document = await vscode.workspace.openTextDocument({ content: 'const answer = 42;\nexport default answer;\n', language: 'typescript' });
    const { stream } = await run(request('explain', 'gpt-oss:120b', [
      { id: 'file', value: document.uri } as vscode.ChatPromptReference,
      { id: 'selection', value: new vscode.Location(document.uri, new vscode.Range(1, 0, 1, 22)) } as vscode.ChatPromptReference,
    ]));
    assert.equal(stream.references.length, 2);
    assert.match(stream.text, /Echo \(gpt-oss:120b\): /);
    assert.match(stream.text, /const answer = 42;/, 'the file content reached the model');
    assert.match(stream.text, /export default answer;/);
    assert.match(stream.text, /explain$/);
  });

  it('sends an image to a vision model as an image_url part', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const { stream } = await run(request('what is this?', 'qwen3-vl:8b', [{ id: 'image', value: { mimeType: 'image/png', data: async () => png } } as vscode.ChatPromptReference]));
    assert.match(stream.text, /\[image 1: image\/png, 12 bytes\]/);
  });

  it('explains that a non-vision model cannot read images and offers to pick a model, without calling the service', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const { stream, result } = await run(request('what is this?', 'gpt-oss:120b', [{ id: 'image', value: { mimeType: 'image/png', data: async () => png } } as vscode.ChatPromptReference]));
    assert.match(stream.text, /gpt-oss:120b cannot read images/);
    assert.deepEqual(stream.buttons.map((b) => b.command), ['stratus.pickModel']);
    assert.equal((result.metadata as { error?: boolean }).error, true);
  });

  it('renders a rate limit as an error with "Retry after N s"', async () => {
    await control('/burst', { status: 429, count: 5, retryAfterSeconds: 120, pathPrefix: '/v1/chat/completions' });
    const { stream, result } = await run(request('hello', 'gpt-oss:120b'));
    assert.match(result.errorDetails?.message ?? '', /Rate limit reached \(429\)\. Retry in 1[12]\d s/);
    assert.ok(stream.buttons.some((b) => /^Retry after 1[12]\d s$/.test(b.title)), JSON.stringify(stream.buttons));
    await control('/reset', {});
  });

  it('renders an unknown model as an error with "Pick Model"', async () => {
    const { stream, result } = await run(request('hello', 'no-such-model:1b'));
    assert.match(result.errorDetails?.message ?? '', /model_not_found/);
    assert.ok(stream.buttons.some((b) => b.command === 'stratus.pickModel'));
  });
});
