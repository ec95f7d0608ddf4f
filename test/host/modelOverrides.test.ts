// Issue 32, section 4: stratus.models.overrides, applied where the catalog lists the models, feeds
// the model picker and @stratus; a model marked as having no tool calling is offered no tools.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Redactor } from '../../src/core/http/redact';
import { silentLogger } from '../../src/core/log';
import { createHandler } from '../../src/features/chat/handler';
import type { Deps } from '../../src/features/deps';
import { StratusModelProvider } from '../../src/features/models/provider';
import { ChatCommandRegistry } from '../../src/platform/chatCommands';
import { SecretStore } from '../../src/platform/secrets';
import { readSettings } from '../../src/platform/settings';
import { ConnectionStatus } from '../../src/services/connectionStatus';
import { ConsoleConnection } from '../../src/services/consoleConnection';
import { InferenceConnection } from '../../src/services/inferenceConnection';
import { memorySecrets, RecordingStream, trustServices } from './fakes';
import { control, requests, sandbox } from './sandbox';

const G = vscode.ConfigurationTarget.Global;

describe('Capability overrides (stratus.models.overrides)', function () {
  this.timeout(30_000);
  const disposables: vscode.Disposable[] = [];
  let deps: Deps;

  before(async () => {
    await control('/reset', {});
    const redactor = new Redactor();
    const logChannel = vscode.window.createOutputChannel('Stratus overrides test', { log: true });
    const secrets = new SecretStore(memorySecrets(sandbox().apiKey), redactor);
    const inference = new InferenceConnection(secrets, silentLogger);
    const connectionStatus = new ConnectionStatus();
    const consoleConnection = new ConsoleConnection(secrets, silentLogger);
    disposables.push(logChannel, inference, connectionStatus, consoleConnection);
    deps = { logger: silentLogger, logChannel, redactor, secrets, settings: readSettings, inference, console: consoleConnection, connectionStatus, chatCommands: new ChatCommandRegistry(), ...trustServices() };
    await vscode.workspace.getConfiguration('stratus').update('models.overrides', {
      'gpt-oss:*': { toolCalling: false, contextLength: 65_536, maxOutputTokens: 2_000 },
      'smollm2:135m': { vision: true },
    }, G);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('stratus').update('models.overrides', undefined, G);
    for (const d of disposables.splice(0)) d.dispose();
  });

  it('the model picker sees the overridden context, output budget, tool calling and vision', async () => {
    const provider = new StratusModelProvider(deps.inference, new ConnectionStatus(), silentLogger, () => ({}));
    disposables.push(provider);
    const models = new Map((await provider.provideLanguageModelChatInformation({ silent: true }, new vscode.CancellationTokenSource().token)).map((m) => [m.id, m]));
    const gptOss = models.get('gpt-oss:120b');
    assert.ok(gptOss, 'gpt-oss:120b is listed');
    assert.equal(gptOss.capabilities.toolCalling, false);
    assert.equal(gptOss.maxOutputTokens, 2_000);
    assert.equal(gptOss.maxInputTokens, 65_536 - 2_000);
    assert.equal(models.get('smollm2:135m')?.capabilities.imageInput, true);
  });

  it('@stratus offers a model overridden to no tool calling no tools, and says so', async () => {
    const before = Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
    const stream = new RecordingStream();
    const request = { prompt: 'hello', command: undefined, references: [], toolReferences: [], model: { vendor: 'stratus', id: 'gpt-oss:120b', maxInputTokens: 100_000 } } as unknown as vscode.ChatRequest;
    const result = await createHandler(deps)(request, { history: [] } as unknown as vscode.ChatContext, stream.asStream(), new vscode.CancellationTokenSource().token);
    assert.notEqual((result?.metadata as { error?: boolean } | undefined)?.error, true, stream.text);
    assert.match(stream.text, /tool/i, 'the answer says why there are no tools');
    const sent = (await requests('/v1/chat/completions')).filter((r) => r.seq > before);
    assert.ok(sent.length > 0, 'the chat request was sent');
    for (const r of sent) assert.equal((r.body?.json as { tools?: unknown } | undefined)?.tools, undefined, 'no tools offered');
  });
});
