import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { BatchJobRecord } from '../../src/services/batchJobs';
import { imagePdf } from '../unit/documents/fixtures';
import { stratus } from './extension';
import { control, eventually, requests, sandbox } from './sandbox';

/** One step of the sandbox's batches (its default batchStepMs): four steps from validating to completed. */
const STEP_MS = 60_000;

describe('batch: search embeddings and document OCR as batch jobs (issue 42)', function () {
  this.timeout(120_000);
  let root: string;
  const search = () => vscode.workspace.getConfiguration('stratus.search');

  before(async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host opens a workspace folder');
    root = folder.uri.fsPath;
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
  });

  after(async () => {
    const { api } = await stratus();
    for (const job of api.batch?.service.jobs() ?? []) await api.batch?.service.remove(job.id);
    await search().update('embeddings.model', undefined, vscode.ConfigurationTarget.Global);
    rmSync(join(root, 'batch-kinds'), { recursive: true, force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await control('/reset', {});
  });

  /** Moves the sandbox clock past completion and makes every follower read now, until the job is done and `done` holds. */
  async function complete(jobId: string, done: (job: BatchJobRecord) => boolean = () => true): Promise<BatchJobRecord> {
    const { api } = await stratus();
    const service = api.batch?.service;
    assert.ok(service, 'the batch test API');
    await control('/clock', { advanceMs: 4 * STEP_MS + 1000 });
    return eventually(async () => {
      service.pollNow();
      const job = service.job(jobId);
      return job && job.parts.every((p) => p.status === 'completed') && done(job) ? job : undefined;
    }, 'the batch to complete on the sandbox clock');
  }

  async function activitiesItem(jobId: string): Promise<vscode.TreeItem> {
    const { api } = await stratus();
    const roots = (await api.views.activities.getChildren()) ?? [];
    const node = roots.find((n) => (n as { jobId?: string }).jobId === jobId);
    assert.ok(node, 'the job is in the Activities view');
    return api.views.activities.getTreeItem(node);
  }

  it('search embeddings: sent as one /v1/embeddings batch, followed in the Activities view, stored by the index when the sandbox clock completes it', async () => {
    const { api } = await stratus();
    assert.ok(api.searchEmbeddingsBatch, 'the embeddings batch test API');
    mkdirSync(join(root, 'batch-kinds'), { recursive: true });
    writeFileSync(join(root, 'batch-kinds', 'renewal.ts'), 'export function renewLease(lease) {\n  // extend the lease before it lapses\n  return lease.extend();\n}\n');
    await search().update('embeddings.model', 'bge-m3:567m', vscode.ConfigurationTarget.Global);
    // The index holds the new file (and whatever earlier suites wrote) before the job is built: a
    // file the watcher brought in after the send has chunks the batch never covered, and the check
    // below rightly found them without a vector (both host tiers of a quiet fresh clone).
    const rebuilt = await vscode.commands.executeCommand<{ files: number } | undefined>('stratus.rebuildSearchIndex');
    assert.ok(rebuilt, 'the index was rebuilt before the job');
    const embedBefore = (await requests('/v1/embeddings')).length;
    const sent = await vscode.commands.executeCommand<{ kind: string; jobId?: string; chunks?: number }>('stratus.search.buildEmbeddingsBatch', { mode: 'batch' });
    assert.equal(sent?.kind, 'sent', JSON.stringify(sent));
    const jobId = sent.jobId ?? '';
    assert.ok((sent.chunks ?? 0) > 0);
    const job = api.batch?.service.job(jobId);
    assert.equal(job?.kind, 'searchEmbeddings');
    const created = (await requests('/v1/batches')).filter((r) => r.method === 'POST');
    assert.ok(created.some((r) => (r.body?.json as { endpoint?: string } | undefined)?.endpoint === '/v1/embeddings'), 'a batch on /v1/embeddings');
    assert.equal((await requests('/v1/embeddings')).length, embedBefore, 'nothing embedded interactively');
    const running = await activitiesItem(jobId);
    assert.match(String(running.contextValue), /^stratus\.batchJob;running;/);

    // Completed by the sandbox clock: the index stores the vectors without being asked.
    await complete(jobId, (j) => j.reviewed);
    const done = await activitiesItem(jobId);
    assert.match(String(done.contextValue), /;kindResults$/);
    assert.equal(done.command?.command, 'stratus.batch.openJobResults');
    const again = await api.searchEmbeddingsBatch.run({ mode: 'batch' });
    assert.equal(again.kind, 'nothing', 'every chunk has its vector now');
    assert.equal((await requests('/v1/embeddings')).length, embedBefore, 'still nothing embedded interactively');
  });

  it('document OCR: the pages go in one batch; once completed the document view shows them as the interactive run would, a failed page listed with why', async () => {
    const { api } = await stratus();
    assert.ok(api.documents, 'the documents test API');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const uri = vscode.Uri.joinPath(folder, 'batch-kinds', 'scan.pdf');
    await vscode.workspace.fs.writeFile(uri, await imagePdf([{ markdown: '# Runbook\n\nRestart the gateway.', nonce: 'batch-ocr-1' }, { markdown: 'Broken page', nonce: 'batch-ocr-2', faults: [{ status: 400, times: 5 }] }]));
    const chatBefore = (await requests('/v1/chat/completions')).length;
    const sent = await api.documents.runBatch(uri, { batchMode: 'batch' });
    assert.equal(sent.kind, 'sent', JSON.stringify(sent));
    const jobId = sent.kind === 'sent' ? sent.jobId : '';
    assert.equal(sent.kind === 'sent' && sent.pages, 2);
    assert.equal(api.batch?.service.job(jobId)?.kind, 'documentOcr');
    assert.equal((await requests('/v1/chat/completions')).length, chatBefore, 'no page read interactively');

    await complete(jobId);
    const shown = await api.documents.applyBatch(jobId);
    assert.equal(shown.kind, 'read', JSON.stringify(shown));
    const result = shown.kind === 'read' ? shown.result : undefined;
    assert.ok(result);
    assert.deepEqual(result.pages.map((p) => [p.number, p.status]), [[1, 'done'], [2, 'failed']]);
    assert.match(result.pages[1]?.reason ?? '', /^the batch could not read this page: /);
    assert.match(result.markdown, /Restart the gateway/);
    const panel = api.documents.panels().find((p) => p.session.id === result.sessionId);
    assert.ok(panel, 'the document view shows the pages');
    assert.equal(panel.session.page(1)?.status, 'done');
    assert.equal((await requests('/v1/chat/completions')).length, chatBefore, 'the pages came from the batch');
    assert.equal(api.batch?.service.job(jobId)?.reviewed, true);
  });

  it('the caps of one task hold these jobs too: over the token cap, neither is sent, and the message says what to change', async () => {
    const { api } = await stratus();
    assert.ok(api.documents, 'the documents test API');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    mkdirSync(join(root, 'batch-kinds'), { recursive: true });
    const lines = Array.from({ length: 300 }, (_, i) => `export function settleInvoice${i}(invoice) { return invoice.total * ${i + 1}; }`);
    writeFileSync(join(root, 'batch-kinds', 'invoices.ts'), `${lines.join('\n')}\n`);
    const uri = vscode.Uri.joinPath(folder, 'batch-kinds', 'capped.pdf');
    await vscode.workspace.fs.writeFile(uri, await imagePdf([{ markdown: '# One', nonce: 'batch-cap-1' }, { markdown: '# Two', nonce: 'batch-cap-2' }]));
    const config = vscode.workspace.getConfiguration('stratus');
    await config.update('agent.maxTurnTokens', 1000, vscode.ConfigurationTarget.Global);
    await search().update('embeddings.model', 'bge-m3:567m', vscode.ConfigurationTarget.Global);
    try {
      const uploads = (await requests('/v1/files')).filter((r) => r.method === 'POST').length;
      const embedded = await vscode.commands.executeCommand<{ kind: string; reason?: string; message?: string }>('stratus.search.buildEmbeddingsBatch', { mode: 'batch' });
      assert.ok(embedded?.kind === 'error' && embedded.reason === 'over_cap', JSON.stringify(embedded));
      assert.match(embedded.message ?? '', /^Not sent: the embeddings of .* above the token cap of one task \(1,000, stratus\.agent\.maxTurnTokens\)\. Raise the cap/);
      const read = await api.documents.runBatch(uri, { batchMode: 'batch' });
      assert.ok(read.kind === 'error' && read.reason === 'over_cap', JSON.stringify(read));
      assert.match(read.message, /^Not sent: the OCR of .* above the token cap of one task .* Choose fewer pages or raise the cap\.$/);
      assert.equal((await requests('/v1/files')).filter((r) => r.method === 'POST').length, uploads, 'nothing uploaded');
    } finally {
      await config.update('agent.maxTurnTokens', undefined, vscode.ConfigurationTarget.Global);
      await search().update('embeddings.model', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
