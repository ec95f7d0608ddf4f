import * as vscode from 'vscode';
import { jobOverCaps, parseTurnCaps } from '../core/agent/turnBudget';
import type { JobCostEstimate } from '../core/usage/batchCost';
import { formatEur } from '../core/usage/format';

export type BatchMode = 'now' | 'batch';

/**
 * Asks whether to send a bulk job now (standard price) or as a batch (half price, results within
 * 24 h), with the estimated tokens and EUR of both shown before anything is sent. `what` names
 * the job's size ("120 chunks of 30 files"); `nowDetail` how the job runs now.
 */
export async function askBatchMode(job: { title: string; what: string; estimate: JobCostEstimate; nowDetail: string }): Promise<BatchMode | undefined> {
  const e = job.estimate;
  const tokens = e.outputTokens > 0
    ? vscode.l10n.t('{0}, ~{1} input and at most {2} output tokens', job.what, e.inputTokens.toLocaleString(), e.outputTokens.toLocaleString())
    : vscode.l10n.t('{0}, ~{1} input tokens', job.what, e.inputTokens.toLocaleString());
  const items: Array<vscode.QuickPickItem & { mode: BatchMode }> = [
    { mode: 'batch', label: vscode.l10n.t('Batch (half price, results within 24 h)'), description: vscode.l10n.t('at most {0}', formatEur(e.batchEur)), detail: vscode.l10n.t('Not counted against the hourly cap; followed in the Activities view. {0}', tokens) },
    { mode: 'now', label: vscode.l10n.t('Now (standard price)'), description: vscode.l10n.t('at most {0}', formatEur(e.standardEur)), detail: `${job.nowDetail} ${tokens}` },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: job.title });
  return picked?.mode;
}

/** A batch job's failure as a sentence with what to do (the provider's reasons switched on, never its message). */
export function batchErrorMessage(reason: string, message: string): string {
  switch (reason) {
    case 'unavailable':
      return vscode.l10n.t('The Batch API is not available on this account yet. Run the job now (standard price) instead.');
    case 'results_deleted':
      return vscode.l10n.t('The results of this batch are no longer kept (the provider deletes them after 7 days). Run the job again.');
    default:
      return message;
  }
}

/**
 * Why the caps of one task refuse a bulk job at the price chosen (before anything is sent), with
 * what to do; undefined when it fits. The same settings as an agent turn's caps (application
 * scope: a workspace cannot raise them). `what` names the job ("this job over 3 files"),
 * `narrow` how to make it smaller.
 */
export function bulkJobCapRefusal(estimate: JobCostEstimate, mode: BatchMode, what: string, narrow: string): string | undefined {
  const settings = vscode.workspace.getConfiguration('stratus');
  const over = jobOverCaps(estimate, mode, parseTurnCaps({ maxTurnTokens: settings.get<unknown>('agent.maxTurnTokens'), maxTurnCostEur: settings.get<unknown>('agent.maxTurnCostEur') }));
  if (!over) return undefined;
  const price = mode === 'batch' ? vscode.l10n.t('as a batch (half price)') : vscode.l10n.t('now (standard price)');
  return over.cap === 'cost'
    ? vscode.l10n.t('Not sent: {0} may cost up to {1} {2}, above the cost cap of one task ({3}, stratus.agent.maxTurnCostEur). {4}', what, formatEur(over.value), price, formatEur(over.limit), narrow)
    : vscode.l10n.t('Not sent: {0} may use up to {1} tokens, above the token cap of one task ({2}, stratus.agent.maxTurnTokens). {3}', what, over.value.toLocaleString(), over.limit.toLocaleString(), narrow);
}
