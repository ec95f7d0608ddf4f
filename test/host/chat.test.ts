import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { silentLogger } from '../../src/core/log';
import { StratusModelProvider } from '../../src/features/models/provider';
import type { StratusModel } from '../../src/platform/languageModelInfo';
import { ConnectionStatus } from '../../src/services/connectionStatus';
import { InferenceConnection } from '../../src/services/inferenceConnection';
import { SecretStore } from '../../src/platform/secrets';
import { Redactor } from '../../src/core/http/redact';
import { control, eventually, requests, sandbox } from './sandbox';

async function stratusModels(): Promise<vscode.LanguageModelChat[]> {
  return eventually(async () => {
    const models = await vscode.lm.selectChatModels({ vendor: 'stratus' });
    return models.some((m) => m.id === 'gpt-oss:120b') ? models : undefined;
  }, 'the sandbox models in vscode.lm');
}

async function collect(response: vscode.LanguageModelChatResponse): Promise<{ text: string; toolCalls: vscode.LanguageModelToolCallPart[] }> {
  let text = '';
  const toolCalls: vscode.LanguageModelToolCallPart[] = [];
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) toolCalls.push(part);
  }
  return { text, toolCalls };
}

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
}

describe('inference in the host (against the sandbox)', function () {
  this.timeout(60_000);

  // Each test sets up what it needs: the key, and no faults or latency left by another test.
  beforeEach(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
  });
  after(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.removeApiKey');
    await vscode.commands.executeCommand('stratus.signOutOfConsole');
  });

  it('lists the chat models in vscode.lm with their context length, and not embedding or rerank models', async () => {
    const models = await stratusModels();
    const ids = models.map((m) => m.id);
    assert.ok(ids.includes('qwen3-vl:8b'));
    assert.ok(!ids.includes('bge-m3:567m') && !ids.includes('qwen3-reranker:4b') && !ids.includes('whisper-large-v3'));
    const tiny = models.find((m) => m.id === 'smollm2:135m');
    assert.ok(tiny);
    assert.equal(tiny.maxInputTokens + 256, 512, 'context length comes from max_model_len');
  });

  it('Stratus: Refresh Models lists the catalogue again', async () => {
    const ids = await vscode.commands.executeCommand<string[]>('stratus.refreshModels');
    assert.ok(ids.includes('gpt-oss:120b') && ids.includes('bge-m3:567m'));
  });

  it('counts tokens for text and messages', async () => {
    const model = (await stratusModels()).find((m) => m.id === 'gpt-oss:120b');
    assert.ok(model);
    const text = await model.countTokens('The quick brown fox jumps over the lazy dog.');
    assert.ok(text > 5 && text < 40, `${text}`);
    assert.ok((await model.countTokens(vscode.LanguageModelChatMessage.User('hello there, how are you today?'))) > 0);
  });

  it('answers sendRequest with streamed text', async () => {
    const model = (await stratusModels()).find((m) => m.id === 'gpt-oss:120b');
    assert.ok(model);
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('hello from the host')], {}, new vscode.CancellationTokenSource().token);
    const { text } = await collect(response);
    assert.equal(text, 'Echo (gpt-oss:120b): hello from the host');
  });

  it('an answer cut mid-stream reaches vscode.lm callers as a "cut off" error, not "cannot reach"', async () => {
    await control('/latency', { ms: 0, chunkDelayMs: 15, pathPrefix: '/v1/chat/completions' });
    await control('/stream-fault', { kind: 'drop', afterChunks: 6, pathPrefix: '/v1/chat/completions' });
    const model = (await stratusModels()).find((m) => m.id === 'gpt-oss:120b');
    assert.ok(model);
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('long 50')], {}, new vscode.CancellationTokenSource().token);
    let text = '';
    await assert.rejects((async () => {
      for await (const part of response.stream) if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    })(), (error: unknown) => {
      assert.ok(error instanceof Error);
      assert.match(error.message, /cut off: the connection was reset/);
      assert.doesNotMatch(error.message, /Cannot reach/);
      return true;
    });
    // VS Code may drop parts still in flight when the provider fails; what it delivers is the start of the answer.
    const whole = Array.from({ length: 50 }, (_, i) => String(i + 1)).join(' ');
    assert.ok(whole.startsWith(text), `delivered text is the start of the answer: ${JSON.stringify(text)}`);
  });

  it('streams tool calls as LanguageModelToolCallPart with parsed arguments', async () => {
    const model = (await stratusModels()).find((m) => m.id === 'gpt-oss:120b');
    assert.ok(model);
    const tools: vscode.LanguageModelChatTool[] = [{ name: 'get_weather', description: 'Weather for a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('use get_weather {"city": "Lyon"}')], { tools }, new vscode.CancellationTokenSource().token);
    const { toolCalls } = await collect(response);
    assert.equal(toolCalls.length, 1);
    assert.equal(toolCalls[0]?.name, 'get_weather');
    assert.deepEqual(toolCalls[0]?.input, { city: 'Lyon' });
  });

  it('@stratus answers a streamed request from the sandbox', async () => {
    const before = await lastSeq();
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@stratus long 30' });
    const done = await eventually(async () => {
      const seen = (await requests('/v1/chat/completions')).filter((r) => r.seq > before);
      return seen.find((r) => r.streamed && r.status === 200 && r.chunksSent >= 30 && !r.clientClosedEarly);
    }, 'a completed streamed chat request');
    const body = done.body?.json as { stream?: boolean; messages?: { role: string; content: unknown }[] } | undefined;
    assert.equal(body?.stream, true);
    assert.equal(body?.messages?.at(-1)?.content, 'long 30');
    assert.equal(body?.messages?.[0]?.role, 'system');
  });

  it('the first @stratus message after the API key is removed and set again is answered (models resolved again)', async () => {
    await vscode.commands.executeCommand('stratus.removeApiKey');
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    const before = await lastSeq();
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@stratus long 3' });
    await eventually(async () => {
      const seen = (await requests('/v1/chat/completions')).filter((r) => r.seq > before);
      return seen.find((r) => r.streamed && r.status === 200) ? true : undefined;
    }, 'the first message after the key changed to reach the service');
  });

  it('cancelling @stratus mid-stream closes the HTTP request (the sandbox sees the connection closed)', async () => {
    await control('/latency', { ms: 0, chunkDelayMs: 50, pathPrefix: '/v1/chat/completions' });
    const before = await lastSeq();
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@stratus long 400' });
    await eventually(async () => {
      const seen = (await requests('/v1/chat/completions')).filter((r) => r.seq > before);
      return seen.find((r) => r.streamed && r.chunksSent >= 5) ? true : undefined;
    }, 'the stream to start');
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    const closed = await eventually(async () => {
      const seen = (await requests('/v1/chat/completions')).filter((r) => r.seq > before);
      return seen.find((r) => r.clientClosedEarly);
    }, 'the sandbox to see the connection closed early', 10_000);
    assert.ok(closed.chunksSent < 400, `cancel stopped the stream after ${closed.chunksSent} of 400 chunks`);
  });
});

describe('the language model provider (against the sandbox)', function () {
  this.timeout(30_000);
  const disposables: vscode.Disposable[] = [];
  let connection: InferenceConnection;

  beforeEach(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    // The extension's own secret store holds the key the command just set.
    const secrets = new SecretStore({
      get: async () => sandbox().apiKey,
      store: async () => undefined,
      delete: async () => undefined,
      onDidChange: new vscode.EventEmitter<vscode.SecretStorageChangeEvent>().event,
    }, new Redactor());
    connection = new InferenceConnection(secrets, silentLogger);
    disposables.push(connection);
  });
  afterEach(async () => {
    for (const d of disposables.splice(0)) d.dispose();
    await vscode.workspace.getConfiguration('stratus').update('models.toolCalling', undefined, vscode.ConfigurationTarget.Global);
  });

  const list = async (provider: StratusModelProvider): Promise<Map<string, StratusModel>> =>
    new Map((await provider.provideLanguageModelChatInformation({ silent: true }, new vscode.CancellationTokenSource().token)).map((m) => [m.id, m]));

  it('declares tool calling by model family, not for every model', async () => {
    const provider = new StratusModelProvider(connection, new ConnectionStatus(), silentLogger, () => ({}));
    disposables.push(provider);
    const models = await list(provider);
    assert.equal(models.get('gpt-oss:120b')?.capabilities.toolCalling, true);
    assert.equal(models.get('smollm2:135m')?.capabilities.toolCalling, false);
    assert.equal(models.get('qwen3-vl:8b')?.capabilities.toolCalling, false);
    assert.equal(models.get('qwen3-vl:8b')?.capabilities.imageInput, true);
  });

  it('stratus.models.toolCalling overrides the family guess either way', async () => {
    await vscode.workspace.getConfiguration('stratus').update('models.toolCalling', { 'smollm2:135m': true, 'gpt-oss:120b': false, 'qwen3:0.6b': 'yes' }, vscode.ConfigurationTarget.Global);
    const provider = new StratusModelProvider(connection, new ConnectionStatus(), silentLogger);
    disposables.push(provider);
    const models = await list(provider);
    assert.equal(models.get('smollm2:135m')?.capabilities.toolCalling, true);
    assert.equal(models.get('gpt-oss:120b')?.capabilities.toolCalling, false);
  });

  it('refuses an image over the size cap with a clear error, without calling the service', async () => {
    const provider = new StratusModelProvider(connection, new ConnectionStatus(), silentLogger, () => ({}));
    disposables.push(provider);
    const model = (await list(provider)).get('qwen3-vl:8b');
    assert.ok(model);
    const before = Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
    const image = { mimeType: 'image/png', data: new Uint8Array(6 * 1024 * 1024) };
    const message = { role: vscode.LanguageModelChatMessageRole.User, content: [new vscode.LanguageModelTextPart('what is this?'), image], name: undefined } as unknown as vscode.LanguageModelChatRequestMessage;
    await assert.rejects(
      provider.provideLanguageModelChatResponse(model, [message], { toolMode: vscode.LanguageModelChatToolMode.Auto } as vscode.ProvideLanguageModelChatResponseOptions, { report: () => undefined }, new vscode.CancellationTokenSource().token),
      (error: unknown) => {
        assert.ok(error instanceof vscode.LanguageModelError, String(error));
        assert.match(error.message, /Image 1 of the request is 6\.0 MB; images are limited to 5\.0 MB each/);
        return true;
      },
    );
    assert.equal(Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq)), before, 'nothing was sent');
  });
});
