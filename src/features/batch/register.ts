import * as vscode from 'vscode';
import { isBatchError, type BatchResult } from '../../core/inference/batch';
import { formatEur } from '../../core/usage/format';
import { presentError } from '../../core/presentError';
import { DisposableStore } from '../../platform/disposables';
import { jobEnded, type BatchJobRecord, type BatchJobService } from '../../services/batchJobs';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { ProposedTexts, PROPOSED_SCHEME, reviewAnswers, type ReviewOutcome } from './review';
import { askGlob, askInstruction, askMode, capRefusal, prepareJob, runNow, type RunArgs } from './run';

export type RunOutcome =
  | { kind: 'sent'; jobId: string; files: number; skipped: string[] }
  | { kind: 'reviewed'; review: ReviewOutcome }
  | { kind: 'stopped' }
  | { kind: 'error'; message: string; reason?: string | undefined };

/** Batch internals for host tests (ExtensionMode.Test only). */
export interface BatchTestApi {
  readonly service: BatchJobService;
  run(args: RunArgs): Promise<RunOutcome>;
  openResults(jobId: string, accept: 'all' | readonly string[]): Promise<RunOutcome>;
}

/** The job a command was given: its id, or an Activities view node of it. */
function jobIdOf(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (typeof target === 'object' && target !== null && (target as { type?: unknown }).type === 'batch') {
    const id = (target as { jobId?: unknown }).jobId;
    return typeof id === 'string' ? id : undefined;
  }
  return undefined;
}

/** Run Prompt over Files, batch jobs followed to their end, and their results reviewed. */
export function register(deps: Deps, options: { service: BatchJobService; testMode: boolean }): { disposable: vscode.Disposable; testApi?: BatchTestApi } {
  const store = new DisposableStore();
  const service = options.service;
  const proposed = new ProposedTexts();
  store.add(vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, proposed));

  const run = async (args: RunArgs | undefined): Promise<RunOutcome> => {
    const allowed = await deps.trust.confirm({
      source: Commands.batchRunPromptOverFiles,
      action: 'send',
      message: vscode.l10n.t('Send the matching files of this untrusted workspace to the model?'),
      button: vscode.l10n.t('Send'),
    });
    if (!allowed) return { kind: 'stopped' };
    const instruction = args?.instruction ?? (await askInstruction());
    if (!instruction?.trim()) return { kind: 'stopped' };
    const glob = args?.glob ?? (await askGlob());
    if (!glob?.trim()) return { kind: 'stopped' };
    const controller = new AbortController();
    try {
      const job = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: reading the files…') }, () => prepareJob(deps, instruction, glob, controller.signal));
      if ('error' in job) {
        void vscode.window.showWarningMessage(job.error);
        return { kind: 'error', message: job.error };
      }
      const mode = args?.mode ?? (await askMode(job));
      if (!mode) return { kind: 'stopped' };
      const refused = capRefusal(job, mode);
      if (refused) {
        const open = vscode.l10n.t('Open Settings');
        void vscode.window.showWarningMessage(refused, open).then((choice) => (choice === open ? vscode.commands.executeCommand('workbench.action.openSettings', 'stratus.agent.maxTurn') : undefined));
        return { kind: 'error', message: refused, reason: 'over_cap' };
      }
      const title = vscode.l10n.t('{0} over {1} files', instruction.split('\n')[0]?.slice(0, 60) ?? '', job.items.length);
      if (mode === 'batch') {
        const record = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: sending the batch…') }, () =>
          service.submit({ title, model: job.model, items: job.items, requests: job.requests, estimate: job.estimate }, controller.signal),
        );
        void vscode.window
          .showInformationMessage(vscode.l10n.t('Batch sent: {0} files at most {1} (half price). Results within 24 h; the Activities view follows it.', job.items.length, formatEur(job.estimate.batchEur)), vscode.l10n.t('Show Activities'))
          .then((choice) => (choice ? vscode.commands.executeCommand(Commands.activitiesShow) : undefined));
        return { kind: 'sent', jobId: record.id, files: job.items.length, skipped: job.skipped };
      }
      const answers = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: running the prompt over {0} files…', job.items.length), cancellable: true }, (_p, token) => runNow(deps, job, token, controller.signal));
      const review = await reviewAnswers(job.items, answers, [], proposed, options.testMode && args ? 'all' : undefined);
      return review ? { kind: 'reviewed', review } : { kind: 'stopped' };
    } catch (error) {
      return failed(error);
    }
  };

  const openResults = async (jobId: string | undefined, accept?: 'all' | readonly string[]): Promise<RunOutcome> => {
    const job = jobId ? service.job(jobId) : undefined;
    if (!job) return { kind: 'error', message: vscode.l10n.t('This batch job is no longer known.') };
    const answers = new Map<string, unknown>();
    try {
      const summary = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: reading the batch results…') }, () =>
        service.results(job.id, (result: BatchResult) => {
          if (result.ok) answers.set(result.customId, result.body);
        }),
      );
      const review = await reviewAnswers(job.items, answers, summary.failed, proposed, accept);
      if (!review) return { kind: 'stopped' };
      await service.markReviewed(job.id);
      reportReview(review, job);
      return { kind: 'reviewed', review };
    } catch (error) {
      return failed(error);
    }
  };

  store.add(vscode.commands.registerCommand(Commands.batchRunPromptOverFiles, (args?: unknown) => run(options.testMode && typeof args === 'object' && args !== null ? (args as RunArgs) : undefined)));
  store.add(vscode.commands.registerCommand(Commands.batchOpenResults, (target?: unknown) => openResults(jobIdOf(target))));
  store.add(
    vscode.commands.registerCommand(Commands.batchCancel, async (target?: unknown) => {
      const job = service.job(jobIdOf(target) ?? '');
      if (!job || jobEnded(job)) return;
      const yes = vscode.l10n.t('Cancel Batch');
      if ((await vscode.window.showWarningMessage(vscode.l10n.t('Cancel the batch "{0}"? Requests already done may still be billed.', job.title), { modal: true }, yes)) !== yes) return;
      try {
        await service.cancel(job.id);
      } catch (error) {
        failed(error);
      }
    }),
  );
  store.add(service.onDidFinish((job) => void notifyFinished(job)));
  service.resume();

  async function notifyFinished(job: BatchJobRecord): Promise<void> {
    const review = vscode.l10n.t('Review Results');
    const show = vscode.l10n.t('Show Activities');
    if (job.error) {
      const choice = await vscode.window.showErrorMessage(vscode.l10n.t('Batch "{0}" did not complete: {1}', job.title, job.error.message), show);
      if (choice === show) await vscode.commands.executeCommand(Commands.activitiesShow);
      return;
    }
    const failedCount = job.parts.reduce((n, p) => n + p.failed, 0);
    const message = failedCount > 0 ? vscode.l10n.t('Batch "{0}" completed; {1} of {2} requests failed.', job.title, failedCount, job.items.length) : vscode.l10n.t('Batch "{0}" completed: {1} results to review.', job.title, job.items.length);
    const choice = await vscode.window.showInformationMessage(message, review, show);
    if (choice === review) await openResults(job.id);
    else if (choice === show) await vscode.commands.executeCommand(Commands.activitiesShow);
  }

  function failed(error: unknown): RunOutcome {
    if (isBatchError(error)) {
      void vscode.window.showErrorMessage(batchErrorMessage(error.reason, error.message));
      return { kind: 'error', message: error.message, reason: error.reason };
    }
    const presented = presentError(error);
    if (presented.cancelled) return { kind: 'stopped' };
    void vscode.window.showErrorMessage(presented.message);
    return { kind: 'error', message: presented.message };
  }

  const testApi: BatchTestApi | undefined = options.testMode ? { service, run, openResults: (jobId, accept) => openResults(jobId, accept) } : undefined;
  return { disposable: store, ...(testApi ? { testApi } : {}) };
}

function batchErrorMessage(reason: string, message: string): string {
  switch (reason) {
    case 'unavailable':
      return vscode.l10n.t('The Batch API is not available on this account yet. Run the job now (standard price) instead.');
    case 'results_deleted':
      return vscode.l10n.t('The results of this batch are no longer kept (the provider deletes them after 7 days). Run the job again.');
    default:
      return message;
  }
}

function reportReview(review: ReviewOutcome, job: BatchJobRecord): void {
  const parts = [vscode.l10n.t('{0} files changed, {1} left as they were.', review.applied.length, review.rejected.length + review.unchanged.length)];
  if (review.changedSinceSent.length > 0) parts.push(vscode.l10n.t('Changed since sent, not overwritten: {0}.', review.changedSinceSent.join(', ')));
  if (review.failed.length > 0) {
    const labels = review.failed.map((f) => `${job.items.find((i) => i.customId === f.customId)?.label ?? f.customId} (${f.message})`);
    parts.push(vscode.l10n.t('No result for: {0}.', labels.join(', ')));
  }
  void vscode.window.showInformationMessage(parts.join(' '));
}
