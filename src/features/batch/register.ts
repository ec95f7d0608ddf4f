import * as vscode from 'vscode';
import { isBatchError, type BatchResult } from '../../core/inference/batch';
import { formatEur } from '../../core/usage/format';
import { presentError } from '../../core/presentError';
import { batchErrorMessage } from '../../platform/batchJobUi';
import { afterActivation } from '../../platform/afterActivation';
import { DisposableStore } from '../../platform/disposables';
import { jobEnded, type BatchJobRecord, type BatchJobService } from '../../services/batchJobs';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { ProposedTexts, PROPOSED_SCHEME, reviewAnswers, type ReviewOutcome } from './review';
import type { PromptOverFilesOutcome } from '../../services/promptOverFiles';
import { describeFailed, planRetry, retriedFromError } from './retry';
import { askGlob, askInstruction, askMode, capRefusal, prepareJob, runNow, type PreparedJob, type RunArgs } from './run';

export type RunOutcome = PromptOverFilesOutcome;

/** Batch internals for host tests (ExtensionMode.Test only). */
export interface BatchTestApi {
  readonly service: BatchJobService;
  run(args: RunArgs): Promise<RunOutcome>;
  openResults(jobId: string, accept: 'all' | readonly string[]): Promise<RunOutcome>;
  /** Retry Failed Items; `confirm` answers the question (true: retry). */
  retryFailed(jobId: string, confirm: boolean): Promise<RunOutcome>;
  /** The answer to "now or batch?" of runs started without a mode (the chat's /prompt --files); undefined: asked. */
  answerMode(mode: 'batch' | 'now' | undefined): void;
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

  let testModeAnswer: 'batch' | 'now' | undefined;
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
      const mode = args?.mode ?? testModeAnswer ?? (await askMode(job));
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
          service.submit({ title, model: job.model, items: job.items, requests: job.requests, estimate: job.estimate, instruction }, controller.signal),
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
      // An answer the review refused is a failed item too: listed with why, sent again by Retry Failed Items.
      await service.markReviewed(job.id, review.failed);
      reportReview(review, service.job(job.id) ?? job);
      return { kind: 'reviewed', review };
    } catch (error) {
      return failed(error);
    }
  };

  /** Jobs whose retry is being asked or sent (a second click waits for nothing and sends nothing). */
  const retrying = new Set<string>();

  /** Asks like a new job: which items failed and why, both prices; then sends them as a new batch. */
  const confirmRetry = async (source: BatchJobRecord, job: PreparedJob): Promise<boolean> => {
    const yes = vscode.l10n.t('Retry as a Batch');
    const detail = [
      vscode.l10n.t('At most {0} as a batch (half price, results within 24 h; {1} now). Each file is sent as it is now.', formatEur(job.estimate.batchEur), formatEur(job.estimate.standardEur)),
      '',
      vscode.l10n.t('Failed:'),
      ...describeFailed(source),
    ].join('\n');
    return (await vscode.window.showWarningMessage(vscode.l10n.t('Retry the {0} failed items of "{1}" as a new batch?', job.items.length, source.title), { modal: true, detail }, yes)) === yes;
  };

  const retryFailed = async (jobId: string | undefined, confirm?: boolean): Promise<RunOutcome> => {
    // The trust gate first: whatever the target, nothing of an untrusted workspace is read unasked.
    const allowed = await deps.trust.confirm({ source: Commands.batchRetryFailed, action: 'send', message: vscode.l10n.t('Send the failed files of this untrusted workspace to the model again?'), button: vscode.l10n.t('Send') });
    if (!allowed) return { kind: 'stopped' };
    if (!jobId) return { kind: 'error', message: vscode.l10n.t('This batch job is no longer known.') };
    if (retrying.has(jobId)) return { kind: 'stopped' };
    retrying.add(jobId);
    const controller = new AbortController();
    try {
      const plan = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: reading which items failed…') }, () => planRetry(service, jobId, controller.signal));
      if (plan.kind !== 'job') {
        if (plan.kind === 'none') void vscode.window.showInformationMessage(plan.message);
        else void vscode.window.showWarningMessage(plan.message);
        return { kind: 'error', message: plan.message, reason: plan.kind === 'error' ? plan.reason : plan.kind === 'none' ? 'nothing_to_retry' : 'already_retried' };
      }
      if (!(confirm ?? (await confirmRetry(plan.source, plan.job)))) return { kind: 'stopped' };
      const refused = capRefusal(plan.job, 'batch');
      if (refused) {
        void vscode.window.showWarningMessage(refused);
        return { kind: 'error', message: refused, reason: 'over_cap' };
      }
      const title = vscode.l10n.t('Retry: {0}', plan.source.title);
      const record = await service.submit({ title, model: plan.job.model, items: plan.job.items, requests: plan.job.requests, estimate: plan.job.estimate, instruction: plan.job.instruction, retryOf: plan.source.id }, controller.signal);
      void vscode.window.showInformationMessage(vscode.l10n.t('Retry sent: {0} files at most {1} (half price). The Activities view follows it.', plan.job.items.length, formatEur(plan.job.estimate.batchEur)));
      return { kind: 'sent', jobId: record.id, files: plan.job.items.length, skipped: plan.job.skipped };
    } catch (error) {
      const retried = retriedFromError(error);
      if (retried?.kind === 'retried') {
        void vscode.window.showWarningMessage(retried.message);
        return { kind: 'error', message: retried.message, reason: 'already_retried' };
      }
      return failed(error);
    } finally {
      retrying.delete(jobId);
    }
  };

  store.add(vscode.commands.registerCommand(Commands.batchRetryFailed, (target?: unknown) => retryFailed(jobIdOf(target))));
  store.add(vscode.commands.registerCommand(Commands.batchRunPromptOverFiles, (args?: unknown) => run(commandArgs(args, options.testMode))));
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
  // Stored jobs are followed from just after activation (their polls are asynchronous anyway).
  store.add(afterActivation(() => service.resume()));

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
    const retry = vscode.l10n.t('Retry Failed Items');
    const choice = await (failedCount > 0 ? vscode.window.showWarningMessage(message, review, retry, show) : vscode.window.showInformationMessage(message, review, show));
    if (choice === retry) await retryFailed(job.id);
    else if (choice === review) await openResults(job.id);
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

  const testApi: BatchTestApi | undefined = options.testMode ? { service, run, openResults: (jobId, accept) => openResults(jobId, accept), retryFailed: (jobId, confirm) => retryFailed(jobId, confirm), answerMode: (mode) => { testModeAnswer = mode; } } : undefined;
  return { disposable: store, ...(testApi ? { testApi } : {}) };
}

/**
 * The command's arguments: the instruction and the glob from whoever starts it (the chat's
 * `/prompt <name> --files <glob>`); the mode in tests only (a person always chooses it, seeing both prices).
 */
function commandArgs(args: unknown, testMode: boolean): RunArgs | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const a = args as { instruction?: unknown; glob?: unknown; mode?: unknown };
  const out: RunArgs = {};
  if (typeof a.instruction === 'string') out.instruction = a.instruction;
  if (typeof a.glob === 'string') out.glob = a.glob;
  if (testMode && (a.mode === 'batch' || a.mode === 'now')) out.mode = a.mode;
  return out;
}

function reportReview(review: ReviewOutcome, job: BatchJobRecord): void {
  const retry = vscode.l10n.t('Retry Failed Items');
  const offerRetry = review.failed.length > 0 && job.retriedAs === undefined;
  const parts = [vscode.l10n.t('{0} files changed, {1} left as they were.', review.applied.length, review.rejected.length + review.unchanged.length)];
  if (review.changedSinceSent.length > 0) parts.push(vscode.l10n.t('Changed since sent, not overwritten: {0}.', review.changedSinceSent.join(', ')));
  if (review.failed.length > 0) {
    const labels = review.failed.map((f) => `${job.items.find((i) => i.customId === f.customId)?.label ?? f.customId} (${f.message})`);
    parts.push(vscode.l10n.t('No result for: {0}.', labels.join(', ')));
  }
  const shown = offerRetry ? vscode.window.showWarningMessage(parts.join(' '), retry) : vscode.window.showInformationMessage(parts.join(' '));
  void shown.then((choice) => (choice === retry ? vscode.commands.executeCommand(Commands.batchRetryFailed, job.id) : undefined));
}
