import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunOutcome } from '../../src/features/batch/register';
import { FollowLeases } from '../../src/core/inference/batch/followLease';
import { silentLogger } from '../../src/core/log';
import { BatchJobService, type BatchJobRecord } from '../../src/services/batchJobs';
import { jobState } from '../../src/features/resources/batchNodes';
import { stratus } from './extension';
import { testDeps } from './fakes';
import { control, eventually, requests, sandbox } from './sandbox';

/** One step of the sandbox's batches (its default batchStepMs): four steps from validating to completed. */
const STEP_MS = 60_000;

class MemoryMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return (this.values.has(key) ? this.values.get(key) : fallback) as T | undefined;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

describe('batch: Run Prompt over Files as a batch (issue 42)', function () {
  this.timeout(60_000);
  let root: string;

  before(async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host opens a workspace folder');
    root = folder.uri.fsPath;
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
  });

  afterEach(async () => {
    await control('/batches', { available: 'available', hold: false, failLinesContaining: '' });
  });

  // Other suites see the workspace and the Activities view as they were.
  after(async () => {
    const { api } = await stratus();
    for (const job of api.batch?.service.jobs() ?? []) await api.batch?.service.remove(job.id);
    for (const dir of ['batch-host', 'batch-resume', 'batch-404', 'batch-retry', 'batch-cap', 'batch-ignored', 'batch-refresh', 'batch-refused', 'batch-windows']) rmSync(join(root, dir), { recursive: true, force: true });
  });

  function write(relative: string, text: string): void {
    const path = join(root, relative);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  }

  /** Moves the sandbox clock past completion and makes every follower read now, until `probe` holds. */
  async function complete(service: BatchJobService, jobId: string): Promise<BatchJobRecord> {
    await control('/clock', { advanceMs: 4 * STEP_MS + 1000 });
    return eventually(async () => {
      service.pollNow();
      const job = service.job(jobId);
      return job && job.parts.every((p) => p.status === 'completed') ? job : undefined;
    }, 'the batch to complete on the sandbox clock');
  }

  it('sends the job as one batch, shows it in the Activities view, completes by the sandbox clock, and applies the reviewed files; a file changed since it was sent is reported, not overwritten', async () => {
    const { api } = await stratus();
    assert.ok(api.batch, 'the batch test API');
    write('batch-host/one.ts', 'export const one = 1;\n');
    write('batch-host/two.ts', 'export const two = 2;\n');
    write('batch-host/three.ts', 'export const three = 3;\n');
    const postsBefore = (await requests('/v1/batches')).filter((r) => r.method === 'POST').length;
    const sent = (await vscode.commands.executeCommand('stratus.batch.runPromptOverFiles', { instruction: 'Add a header comment', glob: 'batch-host/*.ts', mode: 'batch' })) as RunOutcome;
    assert.equal(sent.kind, 'sent', JSON.stringify(sent));
    assert.ok(sent.kind === 'sent' && sent.files === 3);
    assert.equal((await requests('/v1/batches')).filter((r) => r.method === 'POST').length, postsBefore + 1, 'one batch created, once');

    // The Activities entry: state, progress and the price, whether or not the console is signed in.
    const roots = await api.views.activities.getChildren();
    const node = (roots ?? []).find((n) => (n as { type?: string; jobId?: string }).jobId === sent.jobId);
    assert.ok(node, 'the batch is listed in the Activities view');
    const item = await api.views.activities.getTreeItem(node);
    assert.match(String(item.description), /validating · 0\/3/);
    assert.match(String(item.contextValue), /^stratus\.batchJob;running;/);

    // A file edited after it was sent must not be overwritten by its (older) result.
    write('batch-host/two.ts', 'export const two = 22; // edited meanwhile\n');
    const job = await complete(api.batch.service, sent.jobId);
    assert.equal(job.parts[0]?.completed, 3);
    const done = await api.views.activities.getTreeItem(node);
    assert.match(String(done.description), /completed · 3\/3/);
    assert.match(String(done.contextValue), /;ended;results$/);
    assert.match((done.tooltip as vscode.MarkdownString).value, /Results kept until/);

    const reviewed = await api.batch.openResults(sent.jobId, 'all');
    assert.equal(reviewed.kind, 'reviewed', JSON.stringify(reviewed));
    assert.ok(reviewed.kind === 'reviewed');
    assert.deepEqual(reviewed.review.applied.sort(), ['batch-host/one.ts', 'batch-host/three.ts']);
    assert.deepEqual(reviewed.review.changedSinceSent, ['batch-host/two.ts']);
    // One multi-file diff (vscode.changes) where this VS Code has it, else a diff per file: the agent's review's opener.
    assert.ok(reviewed.review.diff === 'changes' || reviewed.review.diff === 'diff', String(reviewed.review.diff));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.match(readFileSync(join(root, 'batch-host/one.ts'), 'utf8'), /^Echo \(/, 'the sandbox model answer was written');
    assert.equal(readFileSync(join(root, 'batch-host/two.ts'), 'utf8'), 'export const two = 22; // edited meanwhile\n');
    assert.equal(api.batch.service.job(sent.jobId)?.reviewed, true);
  });

  it('a job kept in global storage is resumed after a reload and followed to its end', async () => {
    const { api } = await stratus();
    assert.ok(api.batch);
    write('batch-resume/a.md', '# a\n');
    const sent = await api.batch.run({ instruction: 'Fix typos', glob: 'batch-resume/*.md', mode: 'batch' });
    assert.equal(sent.kind, 'sent', JSON.stringify(sent));
    assert.ok(sent.kind === 'sent');
    // A second service over the same stored ids: what a reloaded window builds at activation.
    const memento = new MemoryMemento();
    await memento.update('stratus.batch.jobs', api.batch.service.jobs().filter((j) => j.id === sent.jobId));
    const { deps, disposables } = testDeps('Stratus batch resume test', sandbox().apiKey);
    const reloaded = new BatchJobService(memento, deps.inference, silentLogger, { tmpDir: tmpdir });
    try {
      const finished = new Promise<BatchJobRecord>((resolve) => reloaded.onDidFinish(resolve));
      reloaded.resume();
      await complete(reloaded, sent.jobId);
      const job = await finished;
      assert.equal(job.id, sent.jobId);
      assert.equal(job.error, undefined);
    } finally {
      reloaded.dispose();
      for (const d of disposables) d.dispose();
    }
  });

  it('windows sharing the stored jobs: one follows each job; a closed window\'s job is taken at once, a stale one\'s too, and the end is told once', async () => {
    const { api } = await stratus();
    assert.ok(api.batch);
    write('batch-windows/a.md', '# a\n');
    const sent = await api.batch.run({ instruction: 'Fix typos', glob: 'batch-windows/*.md', mode: 'batch' });
    assert.ok(sent.kind === 'sent', JSON.stringify(sent));
    // Three windows over one global storage (the stored jobs and the lease folder).
    const memento = new MemoryMemento();
    await memento.update('stratus.batch.jobs', api.batch.service.jobs().filter((j) => j.id === sent.jobId));
    const dir = mkdtempSync(join(tmpdir(), 'stratus-leases-'));
    const { deps, disposables } = testDeps('Stratus batch windows test', sandbox().apiKey);
    const windowOf = (owner: string): { service: BatchJobService; finished: BatchJobRecord[] } => {
      const service = new BatchJobService(memento, deps.inference, silentLogger, { tmpDir: tmpdir, leases: new FollowLeases({ dir, owner }), leaseRenewMs: 3_600_000 });
      const finished: BatchJobRecord[] = [];
      service.onDidFinish((job) => finished.push(job));
      return { service, finished };
    };
    const [a, b, c] = [windowOf('window-a'), windowOf('window-b'), windowOf('window-c')];
    const leaseFiles = (): string[] => readdirSync(dir).filter((f) => f.endsWith('.lease'));
    try {
      a.service.resume();
      await eventually(() => Promise.resolve(a.service.isFollowing(sent.jobId) && leaseFiles().length === 1 ? true : undefined), 'window a to take the lease');
      b.service.resume();
      await eventually(() => Promise.resolve(b.service.isFollowing(sent.jobId) ? undefined : true), 'window b to leave the job to window a');
      // Window a closes: its lease is given up, and window b takes the job at its next look.
      a.service.dispose();
      await eventually(() => Promise.resolve(leaseFiles().length === 0 ? true : undefined), 'window a to give its lease up');
      await b.service.lookAgainNow();
      await eventually(() => Promise.resolve(b.service.isFollowing(sent.jobId) && leaseFiles().length === 1 ? true : undefined), 'window b to take the lease');
      // Window b stops renewing (asleep, or died): window c takes the stale lease, and b stops when it looks again.
      const [file] = leaseFiles();
      writeFileSync(join(dir, file ?? ''), JSON.stringify({ owner: 'window-b', renewedAt: Date.now() - 3_600_000 }));
      c.service.resume();
      const owner = (): unknown => (JSON.parse(readFileSync(join(dir, file ?? ''), 'utf8')) as { owner?: unknown }).owner;
      await eventually(() => Promise.resolve(c.service.isFollowing(sent.jobId) && owner() === 'window-c' ? true : undefined), 'window c to take the stale lease');
      await b.service.lookAgainNow();
      await eventually(() => Promise.resolve(b.service.isFollowing(sent.jobId) ? undefined : true), 'window b to stop');
      await complete(c.service, sent.jobId);
      await eventually(() => Promise.resolve(c.finished.length === 1 ? true : undefined), 'window c to tell the end');
      b.service.pollNow();
      await b.service.lookAgainNow();
      assert.deepEqual([a.finished.length, b.finished.length, c.finished.length], [0, 0, 1]);
    } finally {
      for (const w of [a, b, c]) w.service.dispose();
      for (const d of disposables) d.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an account without the Batch API (404): a clear error, nothing kept, nothing applied', async () => {
    const { api } = await stratus();
    assert.ok(api.batch);
    write('batch-404/x.ts', 'export const x = 1;\n');
    await control('/batches', { available: 'not_found' });
    const count = api.batch.service.jobs().length;
    const outcome = await api.batch.run({ instruction: 'Add a header comment', glob: 'batch-404/*.ts', mode: 'batch' });
    assert.equal(outcome.kind, 'error');
    assert.ok(outcome.kind === 'error' && outcome.reason === 'unavailable', JSON.stringify(outcome));
    assert.equal(api.batch.service.jobs().length, count, 'no job kept');
    assert.equal(readFileSync(join(root, 'batch-404/x.ts'), 'utf8'), 'export const x = 1;\n');
  });

  it('a partly failed batch: its usage metered once at batch rates and not against the hourly cap, the failed items listed with why, and Retry Failed Items sends just those once', async () => {
    const { api } = await stratus();
    assert.ok(api.batch && api.usage);
    write('batch-retry/good.ts', 'export const good = 1;\n');
    write('batch-retry/bad.ts', 'export const bad = 1; // FAIL-ME\n');
    await control('/batches', { failLinesContaining: 'FAIL-ME' });
    const sent = await api.batch.run({ instruction: 'Add a header comment', glob: 'batch-retry/*.ts', mode: 'batch' });
    assert.ok(sent.kind === 'sent', JSON.stringify(sent));
    const job = await complete(api.batch.service, sent.jobId);
    assert.equal(job.parts[0]?.failed, 1);

    await api.usage.flush();
    const before = api.usage.snapshot();
    const reviewed = await api.batch.openResults(sent.jobId, 'all');
    assert.ok(reviewed.kind === 'reviewed', JSON.stringify(reviewed));
    assert.deepEqual(reviewed.review.applied, ['batch-retry/good.ts']);
    assert.deepEqual(reviewed.review.failed.map((f) => f.code), ['server_error']);
    assert.equal(readFileSync(join(root, 'batch-retry/bad.ts'), 'utf8'), 'export const bad = 1; // FAIL-ME\n', 'nothing written for a failed item');
    const after = api.usage.snapshot();
    assert.equal(after.batch.requests - before.batch.requests, 1, 'the one answered item is metered');
    assert.ok(after.batch.costEur > before.batch.costEur && after.batch.savedEur > before.batch.savedEur);
    assert.equal(after.hour.used, before.hour.used, 'not against the hourly cap');
    assert.match(api.usage.statusBar.tooltip, /not counted against the hourly or daily cap/);
    await api.batch.openResults(sent.jobId, []);
    assert.equal(api.usage.snapshot().batch.requests, after.batch.requests, 'reading the results again records nothing');

    // The Activities entry lists which item failed and why, and offers the retry.
    const node = ((await api.views.activities.getChildren()) ?? []).find((n) => (n as { jobId?: string }).jobId === sent.jobId);
    assert.ok(node);
    const item = await api.views.activities.getTreeItem(node);
    assert.match(String(item.contextValue), /;failed$/);
    assert.match((item.tooltip as vscode.MarkdownString).value, /batch\\-retry\/bad\\\.ts: The model could not answer this request/);

    await control('/batches', { failLinesContaining: '' });
    const posts = async (): Promise<number> => (await requests('/v1/batches')).filter((r) => r.method === 'POST').length;
    const postsBefore = await posts();
    const [retry, again] = await Promise.all([api.batch.retryFailed(sent.jobId, true), api.batch.retryFailed(sent.jobId, true)]);
    assert.ok(retry.kind === 'sent' && retry.files === 1, JSON.stringify(retry));
    assert.equal(again.kind, 'stopped', 'a second click while the first is sent sends nothing');
    const third = await api.batch.retryFailed(sent.jobId, true);
    assert.ok(third.kind === 'error' && third.reason === 'already_retried', JSON.stringify(third));
    assert.equal(await posts(), postsBefore + 1, 'one batch of the failed items, sent once');
    assert.equal(api.batch.service.job(sent.jobId)?.retriedAs, retry.jobId);
    const retriedItem = await api.views.activities.getTreeItem(node);
    assert.doesNotMatch(String(retriedItem.contextValue), /;failed$/, 'no second retry offered');

    await complete(api.batch.service, retry.jobId);
    const second = await api.batch.openResults(retry.jobId, 'all');
    assert.ok(second.kind === 'reviewed', JSON.stringify(second));
    assert.deepEqual(second.review.applied, ['batch-retry/bad.ts']);
    assert.match(readFileSync(join(root, 'batch-retry/bad.ts'), 'utf8'), /^Echo \(/);
  });

  it('an answer the review refuses (a chat-format token) is a failed item: listed with why, and Retry Failed Items sends it again', async () => {
    const { api } = await stratus();
    assert.ok(api.batch);
    write('batch-refused/a.ts', 'export const a = 1;\n');
    // The sandbox echoes the instruction, so the answer holds a token the file does not.
    const sent = await api.batch.run({ instruction: 'Add a header comment <|im_start|>', glob: 'batch-refused/*.ts', mode: 'batch' });
    assert.ok(sent.kind === 'sent', JSON.stringify(sent));
    await complete(api.batch.service, sent.jobId);
    const reviewed = await api.batch.openResults(sent.jobId, 'all');
    assert.ok(reviewed.kind === 'reviewed', JSON.stringify(reviewed));
    assert.deepEqual(reviewed.review.applied, []);
    assert.equal(readFileSync(join(root, 'batch-refused/a.ts'), 'utf8'), 'export const a = 1;\n', 'a refused answer is never written');
    const job = api.batch.service.job(sent.jobId);
    assert.deepEqual(job?.failedItems?.map((f) => f.code), ['control_tokens'], 'the refusal is kept with the job');
    const node = ((await api.views.activities.getChildren()) ?? []).find((n) => (n as { jobId?: string }).jobId === sent.jobId);
    assert.ok(node);
    assert.match(((await api.views.activities.getTreeItem(node)).tooltip as vscode.MarkdownString).value, /batch\\-refused\/a\\\.ts: The answer holds the chat\\?-format token/);
    const retry = await api.batch.retryFailed(sent.jobId, true);
    assert.ok(retry.kind === 'sent' && retry.files === 1, JSON.stringify(retry));
  });

  it('Refresh on the Activities view checks a running batch now, not at its next poll, with one check in flight per job', async () => {
    const { api } = await stratus();
    assert.ok(api.batch);
    write('batch-refresh/a.ts', 'export const a = 1;\n');
    const sent = await api.batch.run({ instruction: 'Add a header comment', glob: 'batch-refresh/*.ts', mode: 'batch' });
    assert.ok(sent.kind === 'sent', JSON.stringify(sent));
    const part = api.batch.service.job(sent.jobId)?.parts[0]?.id;
    assert.ok(part, 'the job has its batch');
    const reads = async (): Promise<number> => (await requests(`/v1/batches/${part}`)).filter((r) => r.method === 'GET' && r.path === `/v1/batches/${part}`).length;
    // The follower's first read has been made and it sleeps (its next poll is 30 s away).
    await vscode.commands.executeCommand('stratus.activities.refresh');
    const first = api.batch.service.job(sent.jobId);
    assert.ok(first && jobState(first) === 'validating', JSON.stringify(first?.parts));
    await control('/clock', { advanceMs: 4 * STEP_MS + 1000 });
    const before = await reads();
    // Two Refreshes at once: one read of the batch, both resolved once it is known.
    await Promise.all([vscode.commands.executeCommand('stratus.activities.refresh'), vscode.commands.executeCommand('stratus.activities.refresh')]);
    const job = api.batch.service.job(sent.jobId);
    assert.ok(job, 'the job is kept');
    assert.equal(jobState(job), 'completed', 'the Refresh read the batch now');
    assert.equal((await reads()) - before, 1, 'one check in flight for the job');
    const node = ((await api.views.activities.getChildren()) ?? []).find((n) => (n as { jobId?: string }).jobId === sent.jobId);
    assert.ok(node, 'the batch is listed');
    assert.match(String((await api.views.activities.getTreeItem(node)).description), /completed · 1\/1/);
  });

  it('a job that would pass the cost cap of one task is refused before anything is sent, with what to do', async () => {
    const { api } = await stratus();
    assert.ok(api.batch);
    write('batch-cap/a.ts', 'export const a = 1;\n');
    const config = vscode.workspace.getConfiguration('stratus');
    await config.update('agent.maxTurnCostEur', 0.01, vscode.ConfigurationTarget.Global);
    try {
      const posts = (await requests('/v1/batches')).filter((r) => r.method === 'POST').length;
      const outcome = await api.batch.run({ instruction: 'Add a header comment', glob: 'batch-cap/*.ts', mode: 'batch' });
      assert.ok(outcome.kind === 'error' && outcome.reason === 'over_cap', JSON.stringify(outcome));
      assert.match(outcome.message, /above the cost cap of one task \(€0\.01, stratus\.agent\.maxTurnCostEur\)\. Narrow the glob/);
      assert.equal((await requests('/v1/batches')).filter((r) => r.method === 'POST').length, posts, 'nothing sent');
    } finally {
      await config.update('agent.maxTurnCostEur', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a .gitignored secret file (.env) or folder, or a credential file by its name (.env.local, a .pem), matched by the glob is never read nor sent; the other files are', async () => {
    const { api } = await stratus();
    assert.ok(api.batch);
    write('batch-ignored/.gitignore', '.env\nprivate/\n');
    write('batch-ignored/.env', 'API_KEY=sk-fake-sandbox-ignored\n');
    write('batch-ignored/private/key.ts', "export const key = 'fake-sandbox-ignored';\n");
    write('batch-ignored/a.ts', 'export const a = 1;\n');
    // Named by no .gitignore, but a credential file by its name (core/workspace/credentialFiles.ts).
    write('batch-ignored/.env.local', 'API_KEY=sk-fake-sandbox-local\n');
    write('batch-ignored/deploy.pem', '-----BEGIN FAKE SANDBOX KEY-----\n');
    const outcome = await api.batch.run({ instruction: 'Add a header comment', glob: 'batch-ignored/**', mode: 'batch' });
    assert.ok(outcome.kind === 'sent', JSON.stringify(outcome));
    const job = api.batch.service.job(outcome.jobId);
    assert.deepEqual(job?.items.map((i) => i.label).sort(), ['batch-ignored/.gitignore', 'batch-ignored/a.ts']);
    assert.deepEqual([...outcome.skipped].sort(), ['batch-ignored/.env', 'batch-ignored/.env.local', 'batch-ignored/deploy.pem', 'batch-ignored/private/key.ts']);
  });
});
