// Drives the @stratus handler directly with requests VS Code cannot script from outside
// (attachments, a chosen model), against the sandbox, with real VS Code documents and URIs.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Redactor } from '../../src/core/http/redact';
import { createInferenceClient, type InferenceClient } from '../../src/core/inference';
import { silentLogger } from '../../src/core/log';
import { createHandler } from '../../src/features/chat/handler';
import { historyMessages, type TurnMetadata } from '../../src/features/chat/history';
import type { Deps } from '../../src/features/deps';
import { ChatCommandRegistry } from '../../src/platform/chatCommands';
import { ConnectionStatus } from '../../src/services/connectionStatus';
import { ConsoleConnection } from '../../src/services/consoleConnection';
import { InferenceConnection } from '../../src/services/inferenceConnection';
import { SecretStore } from '../../src/platform/secrets';
import { readSettings } from '../../src/platform/settings';
import { control, requests, sandbox } from './sandbox';
import { memorySecrets, RecordingStream, trustServices } from './fakes';



/** The connection with a short idle timeout, so a stalled stream fails within the test. */
class ShortIdleConnection extends InferenceConnection {
  private shortIdle: InferenceClient | undefined;
  override client(): InferenceClient {
    this.shortIdle ??= createInferenceClient({ baseUrl: sandbox().inference, apiKey: () => Promise.resolve(sandbox().apiKey), timeouts: { idleMs: 400 } });
    return this.shortIdle;
  }
  override dispose(): void {
    void this.shortIdle?.close();
    super.dispose();
  }
}

/** A ChatResponseTurn as VS Code hands it over (the class has a private constructor). */
function responseTurn(result: vscode.ChatResult): vscode.ChatResponseTurn {
  return Object.assign(Object.create(vscode.ChatResponseTurn.prototype) as vscode.ChatResponseTurn, { participant: 'stratus.chat', response: [], result });
}

function requestTurn(prompt: string): vscode.ChatRequestTurn {
  return Object.assign(Object.create(vscode.ChatRequestTurn.prototype) as vscode.ChatRequestTurn, { prompt, participant: 'stratus.chat', references: [], toolReferences: [] });
}

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
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
    deps = { logger: silentLogger, logChannel, redactor, secrets, settings: readSettings, inference, console: consoleConnection, connectionStatus, chatCommands: new ChatCommandRegistry(), ...trustServices() };
  });
  after(async () => {
    for (const d of disposables) d.dispose();
    await control('/reset', {});
  });
  // Each test sets the faults it needs.
  beforeEach(() => control('/reset', {}));

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
  });

  it('a stream cut mid-answer keeps the partial answer, marks it incomplete, keeps it in the history and offers Retry', async () => {
    // Spaced events, so the text before the reset has reached the handler.
    await control('/latency', { ms: 0, chunkDelayMs: 15, pathPrefix: '/v1/chat/completions' });
    await control('/stream-fault', { kind: 'drop', afterChunks: 6, pathPrefix: '/v1/chat/completions' });
    const { stream, result } = await run(request('long 50', 'gpt-oss:120b'));
    const metadata = result.metadata as TurnMetadata;
    const kept = metadata.messages?.[0]?.content;
    assert.equal(typeof kept, 'string');
    assert.match(String(kept), /^1 2 /, 'the partial answer is what arrived');
    assert.ok(stream.text.startsWith(String(kept)), 'the partial answer stays in the chat');
    assert.match(stream.text, /_\(Incomplete answer: the connection was reset before it finished\. The text above is what arrived\.\)_$/);
    assert.equal(metadata.incomplete, 'reset');
    const message = result.errorDetails?.message ?? '';
    assert.match(message, /cut off: the connection was reset/);
    assert.doesNotMatch(message, /Cannot reach the service/);
    const retry = stream.buttons.find((b) => b.command === 'stratus.retryChat');
    assert.ok(retry, JSON.stringify(stream.buttons));
    assert.deepEqual(retry.arguments, ['long 50', 0]);
    // The next turn sends the partial answer as what the assistant said.
    const history = historyMessages({ history: [requestTurn('long 50'), responseTurn(result)] } as unknown as vscode.ChatContext, 'stratus.chat');
    assert.deepEqual(history, [{ role: 'user', content: 'long 50' }, { role: 'assistant', content: kept }]);
  });

  it('a stream that stalls before any text says nothing arrived, and claims no partial answer', async () => {
    const connection = new ShortIdleConnection(deps.secrets, silentLogger);
    disposables.push(connection);
    await control('/stream-fault', { kind: 'stall', afterChunks: 1, pathPrefix: '/v1/chat/completions' });
    const stream = new RecordingStream();
    const result = (await createHandler({ ...deps, inference: connection })(request('long 50', 'gpt-oss:120b'), { history: [] } as unknown as vscode.ChatContext, stream.asStream(), new vscode.CancellationTokenSource().token)) ?? {};
    const message = result.errorDetails?.message ?? '';
    assert.match(message, /stopped sending before any of the answer arrived/);
    assert.doesNotMatch(`${message} ${stream.text}`, /kept|above|partial|Incomplete/i);
    assert.equal((result.metadata as TurnMetadata).incomplete, undefined);
    assert.equal((result.metadata as TurnMetadata).messages, undefined);
    assert.ok(stream.buttons.some((b) => b.command === 'stratus.retryChat'));
  });

  it('a stream that stalls after text is kept and marked incomplete (stalled)', async () => {
    const connection = new ShortIdleConnection(deps.secrets, silentLogger);
    disposables.push(connection);
    await control('/stream-fault', { kind: 'stall', afterChunks: 4, pathPrefix: '/v1/chat/completions' });
    const stream = new RecordingStream();
    const result = (await createHandler({ ...deps, inference: connection })(request('long 50', 'gpt-oss:120b'), { history: [] } as unknown as vscode.ChatContext, stream.asStream(), new vscode.CancellationTokenSource().token)) ?? {};
    assert.equal((result.metadata as TurnMetadata).incomplete, 'stalled');
    assert.match(stream.text, /^1 2 3 \n\n_\(Incomplete answer: it stopped arriving/);
    assert.match(result.errorDetails?.message ?? '', /cut off: it stopped arriving/);
  });

  it('refuses an image over the size cap with a clear message, without calling the service', async () => {
    const before = await lastSeq();
    const big = new Uint8Array(6 * 1024 * 1024);
    const { stream, result } = await run(request('what is this?', 'qwen3-vl:8b', [{ id: 'huge.png', value: { mimeType: 'image/png', data: async () => big } } as vscode.ChatPromptReference]));
    assert.match(stream.text, /Image too large, nothing was sent\.\*\* huge\.png is 6\.0 MB; images are limited to 5\.0 MB each/);
    assert.equal((result.metadata as TurnMetadata).error, true);
    assert.equal(await lastSeq(), before, 'no chat request was sent');
  });

  it('names an attachment that cannot be read without quoting a raw error', async () => {
    const missing = vscode.Uri.file('/definitely/not/here/stratus-missing.ts');
    const { stream } = await run(request('explain', 'gpt-oss:120b', [{ id: 'stratus-missing.ts', value: missing } as vscode.ChatPromptReference]));
    assert.match(stream.text, /> Skipped an attachment: stratus-missing\.ts: (the file does not exist|it cannot be read as text \(details in the Stratus log\))/);
    assert.match(stream.text, /Echo \(gpt-oss:120b\): explain/);
  });

  it('renders an unknown model as an error with "Pick Model"', async () => {
    const { stream, result } = await run(request('hello', 'no-such-model:1b'));
    assert.match(result.errorDetails?.message ?? '', /model_not_found/);
    assert.ok(stream.buttons.some((b) => b.command === 'stratus.pickModel'));
  });
});
