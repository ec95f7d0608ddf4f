import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { metrics, stratus } from './extension';
import { control, eventually, sandbox } from './sandbox';

/** One second of 8 kHz 8-bit mono silence, times `seconds`: the sandbox reads the WAV header. */
function wav(seconds: number): Uint8Array {
  const rate = 8000;
  const data = Buffer.alloc(rate * seconds, 0x80);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return new Uint8Array(Buffer.concat([header, data]));
}

describe('usage meter and view in the host (against the sandbox)', function () {
  this.timeout(60_000);

  before(async () => {
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await control('/reset', {});
    const { api } = await stratus();
    assert.ok(api.usage, 'the usage internals are exported in test mode');
    await api.usage.reset();
  });
  // Each test counts from zero, whatever ran before it (another test's chat, a cancelled stream metered late).
  beforeEach(async () => {
    await (await stratus()).api.usage?.reset();
  });
  after(async () => {
    await (await stratus()).api.usage?.reset();
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.removeApiKey');
    await vscode.commands.executeCommand('stratus.signOutOfConsole');
  });

  it('meters chat (through vscode.lm), rerank and transcription, and the webview receives the totals', async () => {
    const { api } = await stratus();
    const usage = api.usage;
    assert.ok(usage);
    const model = await eventually(async () => (await vscode.lm.selectChatModels({ vendor: 'stratus' })).find((m) => m.id === 'gpt-oss:120b'), 'the sandbox chat model');
    const source = new vscode.CancellationTokenSource();
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('long 40')], {}, source.token);
    let text = '';
    for await (const part of response.text) text += part;
    assert.ok(text.length > 0);

    const client = usage.inferenceClient();
    const documents = Array.from({ length: 150 }, (_, i) => `document ${i} about virtual machines`);
    const ranked = await client.rerank({ model: 'qwen3-reranker:4b', query: 'machines', documents });
    assert.equal(ranked.searchUnits, 2);
    const heard = await client.transcribe({ file: wav(65), filename: 'standup.wav', model: 'whisper-large-v3' });
    assert.ok(heard.durationSeconds !== undefined && heard.durationSeconds > 64);
    await usage.flush();

    const s = usage.snapshot();
    const chat = s.costs.byModel.find((m) => m.model === 'gpt-oss:120b');
    assert.ok(chat, JSON.stringify(s.costs.byModel));
    assert.equal(chat.requests, 1);
    assert.ok(chat.output >= 20, `${chat.output} output tokens for 40 words`);
    assert.ok(chat.input > 0);
    const rerank = s.costs.byModel.find((m) => m.model === 'qwen3-reranker:4b');
    assert.equal(rerank?.searchUnits, 2);
    assert.ok((rerank?.rerankTokens ?? 0) > 150 * 5);
    const audio = s.costs.byKind.find((k) => k.kind === 'audio');
    assert.equal(audio?.quantity, 2, '65 s: two started minutes');
    assert.equal(s.hour.used, chat.output + chat.reasoning);
    assert.equal(s.rateLimit?.limitRequests, 150_000, 'the last X-RateLimit-* headers are kept');
    const serverCount = 150_000 - (s.rateLimit.remainingRequests ?? 0);
    if (chat.estimated === 0) assert.equal(s.hour.used, serverCount, 'the meter agrees with the server\'s own count');
    else {
      // The stream carried no usage (contract profile, not asked for): estimated from the text, biased high.
      assert.ok(s.hour.used >= serverCount && s.hour.used <= serverCount * 1.6, `estimate ${s.hour.used} for ${serverCount} real tokens`);
      assert.ok(s.estimatedRequests >= 1);
    }

    await vscode.commands.executeCommand('stratus.showUsage');
    const shown = await eventually(async () => {
      const state = usage.view.lastState;
      return usage.view.ready && state && state.hour.used === s.hour.used && state.costs.byKind.find((k) => k.kind === 'audio')?.quantity === 2 ? state : undefined;
    }, 'the Usage webview to receive the totals');
    assert.equal(shown.costs.byModel.length, s.costs.byModel.length);
    assert.equal(typeof shown.completion.month.requests, 'number', 'the Completion section gets its figures');
    const paint = await eventually(async () => usage.view.firstPaintMs, 'the webview to report its first paint');
    metrics.usageWebviewFirstPaintMs = paint;
    assert.match(usage.statusBar.text, /^\$\(pulse\) \d/);
    assert.equal(usage.statusBar.level, 'normal');
    assert.match(usage.statusBar.tooltip, /output tokens today/);
  });

  it('the view shows the share of prompt tokens served from the prompt cache per feature', async () => {
    const { api } = await stratus();
    const usage = api.usage;
    assert.ok(usage);
    const client = usage.inferenceClient();
    // Each feature sends a second request that repeats its first as its prefix: the sandbox's
    // prompt cache serves that prefix, and the meter counts it for the feature that sent it.
    for (const purpose of ['chat', 'edit'] as const) {
      const first = [{ role: 'system' as const, content: `You are terse (${purpose}).` }, { role: 'user' as const, content: `hello cache, ${purpose}` }];
      const answer = await client.chat({ model: 'gpt-oss:120b', messages: first }, { purpose });
      await client.chat({ model: 'gpt-oss:120b', messages: [...first, { role: 'assistant', content: answer.text }, { role: 'user', content: 'and again' }] }, { purpose });
    }
    await usage.flush();
    const byFeature = usage.snapshot().promptCache.byFeature;
    assert.deepEqual(byFeature.map((f) => f.feature), ['chat', 'edit']);
    for (const f of byFeature) assert.ok(f.cachedTokens > 0 && f.cachedTokens < f.promptTokens, JSON.stringify(f));
    await vscode.commands.executeCommand('stratus.showUsage');
    await eventually(async () => (JSON.stringify(usage.view.lastState?.promptCache.byFeature) === JSON.stringify(byFeature) ? true : undefined), 'the Usage webview to receive the share per feature');
  });

  it('sends live updates to the open view as requests complete', async () => {
    const { api } = await stratus();
    const usage = api.usage;
    assert.ok(usage);
    await vscode.commands.executeCommand('stratus.showUsage');
    await eventually(async () => (usage.view.ready ? true : undefined), 'the view to be ready');
    const before = usage.view.statesPosted;
    const used = usage.snapshot().hour.used;
    const result = await usage.inferenceClient().chat({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'Hello again' }] });
    const expected = used + (result.usage?.completionTokens ?? 0);
    await eventually(async () => (usage.view.statesPosted > before && usage.view.lastState?.hour.used === expected ? true : undefined), 'a live update');
    assert.equal(usage.view.ignoredMessages, 0);
  });

  /** Replaces a `vscode.window` function for one call site (the extension shares this API object). */
  function stubWindow<K extends 'showWarningMessage' | 'showSaveDialog' | 'showInformationMessage'>(name: K, fake: (...args: unknown[]) => unknown): () => void {
    const win = vscode.window as unknown as Record<string, unknown>;
    const original = win[name];
    win[name] = fake;
    return () => {
      win[name] = original;
    };
  }

  it('resets the statistics only when the user confirms', async () => {
    const { api } = await stratus();
    const usage = api.usage;
    assert.ok(usage);
    await usage.inferenceClient().chat({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'count me' }] });
    const before = usage.snapshot().month.outputTokens;
    assert.ok(before > 0);
    const asked: string[] = [];
    let restore = stubWindow('showWarningMessage', (message) => {
      asked.push(String(message));
      return Promise.resolve(undefined);
    });
    try {
      await vscode.commands.executeCommand('stratus.usage.reset');
    } finally {
      restore();
    }
    assert.deepEqual(asked, ['Reset the Stratus usage statistics?']);
    assert.equal(usage.snapshot().month.outputTokens, before, 'declined: nothing reset');
    restore = stubWindow('showWarningMessage', () => Promise.resolve('Reset'));
    try {
      await vscode.commands.executeCommand('stratus.usage.reset');
    } finally {
      restore();
    }
    assert.equal(usage.snapshot().month.outputTokens, 0);
    await eventually(async () => (usage.view.lastState?.month.outputTokens === 0 ? true : undefined), 'the view to show the reset');
  });

  it('exports the stored usage as CSV to the chosen file', async () => {
    const { api } = await stratus();
    const usage = api.usage;
    assert.ok(usage);
    await usage.inferenceClient().embed({ model: 'bge-m3:567m', input: ['export me'] });
    const dir = mkdtempSync(join(tmpdir(), 'stratus-usage-csv-'));
    const target = vscode.Uri.file(join(dir, 'usage.csv'));
    const restoreSave = stubWindow('showSaveDialog', () => Promise.resolve(target));
    const restoreInfo = stubWindow('showInformationMessage', () => Promise.resolve(undefined));
    try {
      await vscode.commands.executeCommand('stratus.usage.exportCsv');
      const csv = readFileSync(target.fsPath, 'utf8');
      assert.match(csv, /^start_local,start_utc,granularity,model,requests,/);
      assert.match(csv, /,bge-m3:567m,1,/);
    } finally {
      restoreSave();
      restoreInfo();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
