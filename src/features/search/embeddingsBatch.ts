import * as vscode from 'vscode';
import { isBatchError } from '../../core/inference/batch';
import { presentError } from '../../core/presentError';
import { EmbeddingResults, planEmbeddingsBatch, type EmbeddingLine, type EmbeddingsApplied, type WorkspaceIndex } from '../../core/search';
import { formatEur } from '../../core/usage/format';
import { askBatchMode, batchErrorMessage, bulkJobCapRefusal, type BatchMode } from '../../platform/batchJobUi';
import { DisposableStore } from '../../platform/disposables';
import { readSearchSettings } from '../../platform/searchSettings';
import type { BatchJobRecord, BatchJobService } from '../../services/batchJobs';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import type { SearchService } from './service';

/** The kind of the search index's embedding jobs (services/batchJobs.ts). */
export const SEARCH_EMBEDDINGS_KIND = 'searchEmbeddings';

/** What a job keeps for its results: the model, the folder, and the content hashes of each line's inputs. */
interface EmbeddingsJobData {
  model: string;
  folder: string;
  lines: EmbeddingLine[];
}

export type EmbeddingsBatchOutcome =
  | { kind: 'sent'; jobId: string; chunks: number; files: number }
  | { kind: 'stored'; applied: EmbeddingsApplied }
  | { kind: 'nothing' }
  | { kind: 'stopped' }
  | { kind: 'error'; message: string; reason?: string | undefined };

/** Arguments a test passes (ExtensionMode.Test only): the picker's answer, never the trust gate's. */
export interface EmbeddingsBatchArgs {
  mode?: BatchMode;
}

function jobData(job: BatchJobRecord): EmbeddingsJobData | undefined {
  const d = job.data as Partial<EmbeddingsJobData> | undefined;
  return d && typeof d.model === 'string' && typeof d.folder === 'string' && Array.isArray(d.lines) ? (d as EmbeddingsJobData) : undefined;
}

/** One sentence of what storing did: stored, changed since sent (not stored), failed lines with why. */
export function describeApplied(applied: EmbeddingsApplied): string {
  const parts = [vscode.l10n.t('Search embeddings stored for {0} chunks.', applied.stored)];
  if (applied.stale > 0) parts.push(vscode.l10n.t('{0} chunks changed since they were sent: not stored (build again to embed them).', applied.stale));
  if (applied.failed.length > 0) {
    const chunks = applied.failed.reduce((n, f) => n + f.chunks, 0);
    const why = [...new Set(applied.failed.map((f) => f.message))].slice(0, 3).join('; ');
    parts.push(vscode.l10n.t('{0} chunks got no vector ({1}); they stay without until built again.', chunks, why));
  }
  return parts.join(' ');
}

/**
 * "Stratus: Build Search Embeddings as a Batch (half price)": the chunks of the index without a
 * vector of the configured embedding model, sent now or as a batch (both prices shown first);
 * a batch's vectors are stored when it completes (and from the Activities view), never a vector
 * whose chunk changed since it was sent.
 */
export function registerEmbeddingsBatch(deps: Deps, search: SearchService, jobs: BatchJobService, testMode: boolean): { disposable: vscode.Disposable; run(args?: EmbeddingsBatchArgs): Promise<EmbeddingsBatchOutcome>; apply(jobId: string): Promise<EmbeddingsBatchOutcome> } {
  const store = new DisposableStore();

  const failed = (error: unknown): EmbeddingsBatchOutcome => {
    if (isBatchError(error)) {
      const message = batchErrorMessage(error.reason, error.message);
      void vscode.window.showErrorMessage(message);
      return { kind: 'error', message, reason: error.reason };
    }
    const presented = presentError(error);
    if (presented.cancelled) return { kind: 'stopped' };
    void vscode.window.showErrorMessage(presented.message);
    return { kind: 'error', message: presented.message };
  };

  const maxModelLen = async (model: string, signal: AbortSignal): Promise<number> => {
    const models = await deps.inference.client().models.list({ signal });
    return models.find((m) => m.id === model || m.aliases.includes(model))?.maxModelLen ?? 512;
  };

  const run = async (args?: EmbeddingsBatchArgs): Promise<EmbeddingsBatchOutcome> => {
    // The trust gate first, whatever the state: an untrusted workspace is asked before anything.
    const allowed = await deps.trust.confirm({
      source: Commands.searchBuildEmbeddingsBatch,
      action: 'send',
      message: vscode.l10n.t('Send the indexed text of this untrusted workspace to the embedding model?'),
      button: vscode.l10n.t('Send'),
    });
    if (!allowed) return { kind: 'stopped' };
    const folder = search.indexedFolder;
    if (!folder) return { kind: 'error', message: vscode.l10n.t('Open a folder first: search embeddings are built for the workspace folder.') };
    const model = readSearchSettings(folder).embeddingModel;
    if (!model) {
      const message = vscode.l10n.t('Semantic search is off: set stratus.search.embeddings.model to an embedding model first.');
      void vscode.window.showWarningMessage(message);
      return { kind: 'error', message };
    }
    const controller = new AbortController();
    try {
      const prepared = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: reading the chunks without embeddings…') }, async () => {
        const index = await search.currentIndex();
        if (!index) return undefined;
        const pending = await index.pendingEmbeddings(model);
        return { index, plan: planEmbeddingsBatch(pending, model, await maxModelLen(model, controller.signal)) };
      });
      if (!prepared) return { kind: 'error', message: vscode.l10n.t('Open a folder first: search embeddings are built for the workspace folder.') };
      const { index, plan } = prepared;
      if (plan.chunks === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Every chunk of the search index already has its embedding.'));
        return { kind: 'nothing' };
      }
      const what = vscode.l10n.t('{0} chunks of {1} files', plan.chunks, plan.files);
      const mode = args?.mode ?? (await askBatchMode({ title: vscode.l10n.t('Build search embeddings: now or as a batch?'), what, estimate: plan.estimate, nowDetail: vscode.l10n.t('One request per group of chunks, now.') }));
      if (!mode) return { kind: 'stopped' };
      const refused = bulkJobCapRefusal(plan.estimate, mode, vscode.l10n.t('the embeddings of {0}', what), vscode.l10n.t('Raise the cap to build them in one job.'));
      if (refused) {
        void vscode.window.showWarningMessage(refused);
        return { kind: 'error', message: refused, reason: 'over_cap' };
      }
      if (mode === 'now') {
        const collector = new EmbeddingResults(plan.lines);
        await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: embedding {0} chunks…', plan.chunks), cancellable: true }, async (_p, token) => {
          token.onCancellationRequested(() => controller.abort());
          for (const request of plan.requests) {
            const input = (request.body as { input: string[] }).input;
            const result = await deps.inference.client().embed({ model, input }, { signal: controller.signal });
            collector.addAnswer(request.customId, result.embeddings);
          }
        });
        const applied = await collector.store((vectors) => index.storeEmbeddings(model, vectors), []);
        void vscode.window.showInformationMessage(describeApplied(applied));
        return { kind: 'stored', applied };
      }
      const data: EmbeddingsJobData = { model, folder: folder.toString(), lines: plan.lines };
      const record = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: sending the batch…') }, () =>
        jobs.submit(
          {
            title: vscode.l10n.t('Search embeddings of {0}', what),
            model,
            items: plan.lines.map((l) => ({ customId: l.customId, uri: folder.toString(), label: vscode.l10n.t('{0} chunks', l.hashes.length), sentHash: '' })),
            requests: plan.requests,
            estimate: plan.estimate,
            endpoint: '/v1/embeddings',
            kind: SEARCH_EMBEDDINGS_KIND,
            data,
          },
          controller.signal,
        ),
      );
      void vscode.window
        .showInformationMessage(vscode.l10n.t('Batch sent: embeddings of {0} at most {1} (half price). Results within 24 h; the index stores them when they arrive.', what, formatEur(plan.estimate.batchEur)), vscode.l10n.t('Show Activities'))
        .then((choice) => (choice ? vscode.commands.executeCommand(Commands.activitiesShow) : undefined));
      return { kind: 'sent', jobId: record.id, chunks: plan.chunks, files: plan.files };
    } catch (error) {
      return failed(error);
    }
  };

  /** Reads a completed job's vectors into the index (again is harmless: the same vectors by content hash). */
  const apply = async (jobId: string, quiet = false): Promise<EmbeddingsBatchOutcome> => {
    const job = jobs.job(jobId);
    const data = job ? jobData(job) : undefined;
    if (!job || !data) return { kind: 'error', message: vscode.l10n.t('This batch job is no longer known.') };
    const folder = search.indexedFolder;
    if (folder?.toString() !== data.folder) {
      const message = vscode.l10n.t('These search embeddings are for another folder ({0}); open it to store them.', vscode.Uri.parse(data.folder).fsPath);
      if (!quiet) void vscode.window.showWarningMessage(message);
      return { kind: 'error', message };
    }
    try {
      const index: WorkspaceIndex | undefined = await search.currentIndex();
      if (!index) return { kind: 'error', message: vscode.l10n.t('Open a folder first: search embeddings are built for the workspace folder.') };
      const collector = new EmbeddingResults(data.lines);
      const summary = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: reading the batch results…') }, () => jobs.results(job.id, (r) => collector.add(r)));
      const applied = await collector.store((vectors) => index.storeEmbeddings(data.model, vectors), summary.missing);
      await jobs.markReviewed(job.id);
      void vscode.window.showInformationMessage(describeApplied(applied));
      return { kind: 'stored', applied };
    } catch (error) {
      return failed(error);
    }
  };

  store.add(
    jobs.registerKind(SEARCH_EMBEDDINGS_KIND, {
      openResults: async (job) => void (await apply(job.id)),
      finished: (job) => {
        if (job.error) {
          const show = vscode.l10n.t('Show Activities');
          void vscode.window.showErrorMessage(vscode.l10n.t('Batch "{0}" did not complete: {1}', job.title, batchErrorMessage(job.error.reason, job.error.message)), show).then((choice) => (choice ? vscode.commands.executeCommand(Commands.activitiesShow) : undefined));
          return;
        }
        // The index stores them as they arrive: that is what the job was for.
        if (!job.reviewed) void apply(job.id, true);
      },
    }),
  );
  store.add(vscode.commands.registerCommand(Commands.searchBuildEmbeddingsBatch, (args?: unknown) => run(testMode && typeof args === 'object' && args !== null ? (args as EmbeddingsBatchArgs) : undefined)));
  return { disposable: store, run, apply: (jobId) => apply(jobId) };
}
