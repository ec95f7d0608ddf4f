import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
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

  before(async () => {
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
  });
  after(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.signOut');
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
    await control('/latency', { ms: 0, chunkDelayMs: 0 });
  });
});
