import * as vscode from 'vscode';
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
