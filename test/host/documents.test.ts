// Documents in a real extension host against the sandbox: PDFs (a text layer, and scanned pages)
// and a PNG drawn here are written into the test workspace and read through the command (pdf.js
// loaded from dist/pdfjs.js on first use), the document view opens and fills in, the Markdown
// opens and is saved next to the file; a 429 on page 3 of 5 is retried; cancelling keeps the pages
// read; a corrupt PDF gives one clear error; the stratus_readDocument tool reads from the cache;
// and the production profile's grounded answers come back clean.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { registerOcrChatCommand } from '../../src/features/documents/chat';
import type { ExtractResult } from '../../src/features/documents/extract';
import type { Sandbox } from '../sandbox/index';
import { useProductionSandbox } from './productionSandbox';
import { corruptPdf, imagePdf, INVOICE_MARKDOWN, INVOICE_TABLE, scanPng, textPdf } from '../unit/documents/fixtures';
import { stratus } from './extension';
import { RecordingStream, testDeps } from './fakes';
import { control, eventually, requests, sandbox } from './sandbox';

const FOLDER = 'stratus-documents';

function workspaceUri(...segments: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the host test window has a workspace folder');
  return vscode.Uri.joinPath(folder.uri, FOLDER, ...segments);
}

async function write(name: string, bytes: Uint8Array): Promise<vscode.Uri> {
  const uri = workspaceUri(name);
  await vscode.workspace.fs.writeFile(uri, bytes);
  return uri;
}

function extract(uri: vscode.Uri, options?: unknown): Thenable<ExtractResult | undefined> {
  return vscode.commands.executeCommand<ExtractResult | undefined>('stratus.documents.extract', uri, options);
}

/** Records error notifications (the extension shares the window API object) and lets them pass. */
function recordErrors(): { errors: string[]; restore(): void } {
  const win = vscode.window as unknown as Record<string, unknown>;
  const original = win.showErrorMessage;
  const errors: string[] = [];
  win.showErrorMessage = (message: string) => {
    errors.push(message);
    return Promise.resolve(undefined);
  };
  return { errors, restore: () => void (win.showErrorMessage = original) };
}

const chatRequests = async (): Promise<number> => (await requests('/v1/chat/completions')).length;

describe('Documents: PDFs, scans and images to Markdown (against the sandbox)', function () {
  this.timeout(120_000);
  const config = () => vscode.workspace.getConfiguration('stratus.documents');

  before(async () => {
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
  });
  afterEach(async () => {
    await control('/reset', {});
    await config().update('concurrency', undefined, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.commands.executeCommand('stratus.removeApiKey');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(workspaceUri(), { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });

  it('reads a PDF with a text layer directly (no request), and the document view shows its pages', async () => {
    const uri = await write('datasheet.pdf', await textPdf(['Datasheet SX-200\nInput voltage: 12 V', 'Operating range: -20 to 60 C']));
    const before = await chatRequests();
    const result = await extract(uri);
    assert.ok(result, 'the command returned a result');
    assert.deepEqual(result.pages.map((p) => [p.number, p.action, p.status]), [[1, 'text', 'done'], [2, 'text', 'done']]);
    assert.equal(await chatRequests(), before, 'the text layer costs no request');
    assert.match(result.markdown, /^# datasheet\.pdf\n\n## Page 1\n\n_Text layer_\n\nDatasheet SX-200\nInput voltage: 12 V\n\n## Page 2/);

    const { api } = await stratus();
    const panel = api.documents?.panels().find((p) => p.session.id === result.sessionId);
    assert.ok(panel, 'the document view is open');
    await eventually(async () => (panel.isReady ? true : undefined), 'the document view loaded its page and said ready', 30_000);
    const last = [...panel.posted].reverse().find((m) => m.type === 'document');
    assert.ok(last && last.type === 'document');
    assert.deepEqual(last.pages.map((p) => p.status), ['done', 'done']);
  });

  it('reads a scanned PDF and a PNG with the OCR model: tables as Markdown tables, one request per page', async () => {
    const uri = await write('scan.pdf', await imagePdf([{ markdown: '# Runbook\n\nRestart the gateway.', nonce: 'host-scan-1' }, { markdown: INVOICE_MARKDOWN, nonce: 'host-scan-2' }]));
    const before = await chatRequests();
    const result = await extract(uri);
    assert.ok(result);
    assert.deepEqual(result.pages.map((p) => [p.action, p.status, p.model]), [['ocr', 'done', 'deepseek-ocr:3b'], ['ocr', 'done', 'deepseek-ocr:3b']]);
    assert.equal(await chatRequests(), before + 2);
    assert.ok(result.markdown.includes(`## Page 2\n\n_OCR (deepseek-ocr:3b)_\n\n# Invoice 2024-017`), result.markdown);
    assert.ok(result.markdown.includes(INVOICE_TABLE));
    const sent = (await requests('/v1/chat/completions')).slice(before);
    const body = sent[0]?.body?.json as { model: string; messages: Array<{ content: Array<{ type: string; image_url?: { url: string } }> }> };
    assert.equal(body.model, 'deepseek-ocr:3b');
    assert.match(body.messages[0]?.content[0]?.image_url?.url ?? '', /^data:image\/png;base64,/);

    const png = await write('invoice.png', scanPng({ markdown: INVOICE_MARKDOWN, nonce: 'host-png' }));
    const image = await extract(png);
    assert.ok(image);
    assert.equal(image.pages.length, 1);
    assert.ok(image.markdown.includes(INVOICE_TABLE));

    // Open as Markdown: one untitled Markdown document; Save next to the file: invoice.md, asked before replacing.
    const opened = await vscode.commands.executeCommand<string>('stratus.documents.openMarkdown', image.sessionId);
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === opened);
    assert.ok(document && document.isUntitled && document.languageId === 'markdown');
    assert.equal(document.getText(), image.markdown);
    const saved = await vscode.commands.executeCommand<string>('stratus.documents.saveMarkdown', image.sessionId);
    assert.equal(saved, workspaceUri('invoice.md').toString());
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceUri('invoice.md'))), image.markdown);
    await vscode.workspace.fs.writeFile(workspaceUri('invoice.md'), new TextEncoder().encode('mine'));
    assert.equal(await vscode.commands.executeCommand('stratus.documents.saveMarkdown', image.sessionId, false), undefined);
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceUri('invoice.md'))), 'mine', 'not replaced without a yes');
  });

  it('a 429 on page 3 of 5 is waited out (Retry-After) and every page is read', async () => {
    const pages = [1, 2, 3, 4, 5].map((n) => ({ markdown: `Section ${n}`, nonce: `host-429-${n}`, ...(n === 3 ? { faults: [{ status: 429, times: 1, retryAfter: 1 }] } : {}) }));
    const uri = await write('five.pdf', await imagePdf(pages));
    const result = await extract(uri);
    assert.ok(result);
    assert.deepEqual(result.pages.map((p) => p.status), ['done', 'done', 'done', 'done', 'done']);
    assert.ok(result.markdown.includes('## Page 3\n\n_OCR (deepseek-ocr:3b)_\n\nSection 3'));
    assert.equal((await requests('/v1/chat/completions')).filter((r) => r.status === 429).length, 1);
  });

  it('cancelling stops the requests in flight and keeps the pages already read', async () => {
    await config().update('concurrency', 1, vscode.ConfigurationTarget.Global);
    await control('/latency', { ms: 3000, pathPrefix: '/v1/chat/completions' });
    const uri = await write('slow.pdf', await imagePdf([1, 2, 3, 4].map((n) => ({ markdown: `Slow ${n}`, nonce: `host-cancel-${n}` }))));
    const { api } = await stratus();
    const before = await chatRequests();
    const running = extract(uri);
    const session = await eventually(async () => api.documents?.panels().map((p) => p.session).find((s) => s.fileName === 'slow.pdf' && s.page(1)?.status === 'done'), 'page 1 read', 30_000);
    const timeline: string[] = [];
    const started = Date.now();
    const listener = session.onDidChange((p) => timeline.push(`${Date.now() - started} ms: page ${p.number} ${p.status}`));
    // Page 2's request has reached the sandbox (which answers it in 3 s): it is in flight.
    await eventually(async () => ((await chatRequests()) >= before + 2 ? true : undefined), 'page 2 in flight');
    timeline.push(`${Date.now() - started} ms: cancel (concurrency ${String(config().get('concurrency'))})`);
    // What was read when Cancel came stays read; everything else is not read (3 s per answer: no answer lands in between).
    const readBefore = session.pages().filter((p) => p.status === 'done').map((p) => p.number);
    session.cancel();
    const result = await running;
    listener.dispose();
    assert.ok(result);
    const seen = (await requests('/v1/chat/completions')).slice(before).map((r) => `${r.seq}:${String(r.status)}:${String(r.clientClosedEarly)}`);
    const detail = `${timeline.join('\n')}\nrequests ${seen.join(' ')}`;
    assert.ok(readBefore.includes(1) && !readBefore.includes(4), detail);
    assert.deepEqual(result.pages.map((p) => p.status), [1, 2, 3, 4].map((n) => (readBefore.includes(n) ? 'done' : 'cancelled')), detail);
    assert.equal(result.cancelled, true);
    assert.ok(result.markdown.includes('Slow 1'));
    assert.ok(result.markdown.includes('## Page 4\n\n_Not read (cancelled)_'));
    const sent = (await requests('/v1/chat/completions')).slice(before);
    assert.equal(sent.length, readBefore.length + 1, `one request per page read, and the one in flight (${detail})`);
    assert.equal(sent.at(-1)?.status, null, 'the request in flight was stopped before its answer');
  });

  it('a corrupt PDF gives one clear error and no request', async () => {
    const uri = await write('broken.pdf', corruptPdf());
    const recorder = recordErrors();
    const before = await chatRequests();
    try {
      assert.equal(await extract(uri), undefined);
    } finally {
      recorder.restore();
    }
    assert.equal(recorder.errors.length, 1, recorder.errors.join('\n'));
    assert.match(recorder.errors[0] ?? '', /^Stratus: broken\.pdf is not a readable PDF \(.+\)\. Check that the file is complete, or export it again\.$/);
    assert.equal(await chatRequests(), before);
  });

  it('a page that keeps failing shows its reason, and Retry reads it', async () => {
    const pages = [1, 2].map((n) => ({ markdown: `Retry ${n}`, nonce: `host-retry-${n}`, ...(n === 2 ? { faults: [{ status: 429, times: 6, retryAfter: 0 }] } : {}) }));
    const uri = await write('retry.pdf', await imagePdf(pages));
    const result = await extract(uri);
    assert.ok(result);
    assert.deepEqual(result.pages.map((p) => p.status), ['done', 'failed']);
    assert.match(result.pages[1]?.reason ?? '', /rate|limit|429/i);
    assert.ok(result.markdown.includes('## Page 2\n\n_Not read: '));
    const { api } = await stratus();
    const session = api.documents?.session(result.sessionId);
    assert.ok(session);
    let page = session.page(2);
    for (let attempt = 0; attempt < 4 && page?.status !== 'done'; attempt++) page = await session.retry(2);
    assert.equal(page?.status, 'done');
    assert.equal(page?.markdown, 'Retry 2');
    assert.ok(session.markdown().includes('## Page 2\n\n_OCR (deepseek-ocr:3b)_\n\nRetry 2'));
  });

  it('past the page cap the user picks a page range; past the size cap the file is refused', async () => {
    await config().update('maxPages', 2, vscode.ConfigurationTarget.Global);
    const win = vscode.window as unknown as Record<string, unknown>;
    const originalInput = win.showInputBox;
    const prompts: string[] = [];
    win.showInputBox = (options: vscode.InputBoxOptions) => {
      prompts.push(`${options.title ?? ''} | ${options.value ?? ''} | ${String(options.validateInput?.('1-3'))}`);
      return Promise.resolve('2-3');
    };
    try {
      const uri = await write('long.pdf', await textPdf(['First page text', 'Second page text', 'Third page text']));
      const result = await extract(uri);
      assert.ok(result);
      assert.deepEqual(result.pages.map((p) => p.number), [2, 3]);
      assert.deepEqual(prompts, ['long.pdf has 3 pages | 1-2 | That is 3 pages; read at most 2 at a time.']);
    } finally {
      win.showInputBox = originalInput;
      await config().update('maxPages', undefined, vscode.ConfigurationTarget.Global);
    }

    await config().update('maxFileSizeMB', 1, vscode.ConfigurationTarget.Global);
    const recorder = recordErrors();
    try {
      const big = await write('big.png', new Uint8Array(1.5 * 1024 * 1024).fill(7));
      assert.equal(await extract(big), undefined);
    } finally {
      recorder.restore();
      await config().update('maxFileSizeMB', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.deepEqual(recorder.errors, ['Stratus: big.png is 1.5 MB; documents are limited to 1.0 MB (setting stratus.documents.maxFileSizeMB).']);
  });

  it('stratus_readDocument returns a page range from the cache, confined to the workspace', async () => {
    const uri = await write('cached.pdf', await imagePdf([1, 2, 3].map((n) => ({ markdown: `Cached ${n}`, nonce: `host-tool-${n}` }))));
    assert.ok(await extract(uri));
    const before = await chatRequests();
    const tokenSource = new vscode.CancellationTokenSource();
    const result = await vscode.lm.invokeTool('stratus_readDocument', { input: { path: `${FOLDER}/cached.pdf`, startPage: 2, endPage: 3 }, toolInvocationToken: undefined }, tokenSource.token);
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    assert.match(text, /^Document: stratus-documents\/cached\.pdf \(3 page\(s\); pages 2–3\)/);
    assert.ok(text.includes('## Page 2\n\n_OCR (deepseek-ocr:3b)_\n\nCached 2') && text.includes('Cached 3') && !text.includes('Cached 1'));
    assert.equal(await chatRequests(), before, 'read from the cache');
    await assert.rejects(
      Promise.resolve(vscode.lm.invokeTool('stratus_readDocument', { input: { path: '/etc/hostname' }, toolInvocationToken: undefined }, tokenSource.token)),
      /outside the workspace/,
    );
  });

  it('@stratus /ocr reads an attached file (document view and all) or a pasted image, and answers the Markdown', async () => {
    const { deps, disposables } = testDeps('Stratus /ocr test', sandbox().apiKey);
    disposables.push(registerOcrChatCommand(deps, (uri, options) => Promise.resolve(extract(uri, options))));
    try {
      const command = deps.chatCommands.get('ocr');
      assert.ok(command, '/ocr is registered');
      const ask = async (references: vscode.ChatPromptReference[]): Promise<{ stream: RecordingStream; result: vscode.ChatResult }> => {
        const stream = new RecordingStream();
        const request = { prompt: '', command: 'ocr', references, toolReferences: [], model: { vendor: 'stratus', id: 'gpt-oss:120b' } } as unknown as vscode.ChatRequest;
        const result = await command.handle(request, { history: [] } as unknown as vscode.ChatContext, stream.asStream(), new vscode.CancellationTokenSource().token);
        return { stream, result };
      };
      const uri = await write('chat-invoice.png', scanPng({ markdown: INVOICE_MARKDOWN, nonce: 'host-chat-file' }));
      const file = await ask([{ id: 'file', value: uri } as unknown as vscode.ChatPromptReference]);
      assert.ok(file.stream.text.includes(INVOICE_TABLE), file.stream.text);
      assert.deepEqual(file.stream.buttons.map((b) => b.command), ['stratus.documents.openMarkdown', 'stratus.documents.saveMarkdown']);
      assert.equal(file.stream.references.length, 1);

      const bytes = scanPng({ markdown: '# Pasted\n\nA screenshot of a table.', nonce: 'host-chat-paste' });
      const pasted = await ask([{ id: 'image.png', value: { mimeType: 'image/png', data: () => Promise.resolve(bytes) } } as unknown as vscode.ChatPromptReference]);
      assert.match(pasted.stream.text, /^# image\.png\n\n## Page 1\n\n_OCR \(deepseek-ocr:3b\)_\n\n# Pasted\n\nA screenshot of a table\.\n$/);

      const nothing = await ask([]);
      assert.match(nothing.stream.text, /Attach a PDF or an image to `\/ocr`/);
      assert.equal((nothing.result.metadata as { error?: boolean } | undefined)?.error, true);
    } finally {
      for (const d of disposables) d.dispose();
    }
  });

  describe('against the production profile', () => {
    let production: Sandbox;
    let restoreProfile: () => Promise<void> = () => Promise.resolve();

    before(async () => {
      ({ sandbox: production, restore: restoreProfile } = await useProductionSandbox());
      await vscode.commands.executeCommand('stratus.setApiKey', production.credentials.apiKey);
    });
    after(async () => {
      await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
      await restoreProfile();
    });

    it('strips the grounding tags of production answers (one request per page)', async () => {
      const uri = await write('production.png', scanPng({ markdown: INVOICE_MARKDOWN, nonce: 'host-production' }));
      const result = await extract(uri);
      assert.ok(result);
      assert.equal(result.pages[0]?.status, 'done');
      assert.ok(!result.markdown.includes('<|ref|>') && !result.markdown.includes('<|det|>'), result.markdown);
      assert.ok(result.markdown.includes(INVOICE_TABLE));
      assert.equal(production.control.requests({ pathPrefix: '/v1/chat/completions' }).length, 1);
    });
  });
});
