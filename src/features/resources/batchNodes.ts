import * as vscode from 'vscode';
import { escapeMarkdown, inlineCode } from '../../core/markdown';
import { formatEur } from '../../core/usage/format';
import { failedItemsOf, jobEnded, type BatchJobRecord } from '../../services/batchJobs';
import { Commands } from '../commands';

/** A batch job of the batch service (services/batchJobs.ts), as the Activities view shows it. */
export type BatchNode = { type: 'batch'; jobId: string };

/** The state word of a job: the least advanced part's status, or why it ended. */
export function jobState(job: BatchJobRecord): string {
  if (job.error) return job.error.reason;
  const order = ['validating', 'in_progress', 'finalizing', 'cancelling', 'completed', 'cancelled', 'expired', 'failed'];
  return job.parts.map((p) => p.status as string).sort((a, b) => order.indexOf(a) - order.indexOf(b))[0] ?? 'validating';
}

function age(ms: number, now: number): string {
  const minutes = Math.max(0, Math.round((now - ms) / 60_000));
  if (minutes < 60) return vscode.l10n.t('{0} min ago', minutes);
  const hours = Math.round(minutes / 60);
  return hours < 48 ? vscode.l10n.t('{0} h ago', hours) : vscode.l10n.t('{0} days ago', Math.round(hours / 24));
}

/** Which items failed and why (known once the results were read), and whether they were retried. */
function failedLines(job: BatchJobRecord): string[] {
  const failed = failedItemsOf(job);
  const lines = failed.slice(0, 10).map((f) => `  - ${escapeMarkdown(f.item.label)}: ${escapeMarkdown(f.message)}`);
  if (failed.length > 10) lines.push(`  - ${vscode.l10n.t('…and {0} more', failed.length - 10)}`);
  const head = failed.length > 0 ? [`- ${vscode.l10n.t('Failed items:')}`, ...lines] : [];
  if (job.retriedAs !== undefined) head.push(`- ${vscode.l10n.t('Failed items retried as {0}', inlineCode(job.retriedAs))}`);
  return head;
}

export function batchTreeItem(job: BatchJobRecord, now = Date.now()): vscode.TreeItem {
  const total = job.parts.reduce((n, p) => n + p.total, 0);
  const done = job.parts.reduce((n, p) => n + p.completed + p.failed, 0);
  const failed = job.parts.reduce((n, p) => n + p.failed, 0);
  const state = jobState(job);
  const item = new vscode.TreeItem(vscode.l10n.t('Batch: {0}', job.title));
  item.id = `batch/${job.id}`;
  item.description = `${state} · ${done}/${total}${failed > 0 ? ` · ${vscode.l10n.t('{0} failed', failed)}` : ''} · ${age(job.createdAt, now)}`;
  const ended = jobEnded(job);
  item.iconPath = !ended ? new vscode.ThemeIcon('sync~spin') : state === 'completed' ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')) : new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
  const expires = job.parts.map((p) => p.expiresAt).filter((t): t is number => t !== undefined).sort((a, b) => a - b)[0];
  item.tooltip = new vscode.MarkdownString(
    [
      `**${escapeMarkdown(job.title)}**`,
      '',
      `- ${vscode.l10n.t('State: {0}', escapeMarkdown(state))}`,
      `- ${vscode.l10n.t('Requests: {0} of {1} done, {2} failed', done, total, failed)}`,
      `- ${vscode.l10n.t('Price: at most {0} as a batch ({1} now)', formatEur(job.estimate.batchEur), formatEur(job.estimate.standardEur))}`,
      `- ${vscode.l10n.t('Not counted against the hourly cap')}`,
      expires !== undefined ? `- ${vscode.l10n.t('Results kept until {0}', new Date(expires).toLocaleString())}` : '',
      job.error ? `- ${escapeMarkdown(job.error.message)}` : '',
      ...failedLines(job),
      ...job.parts.map((p) => `- ${inlineCode(p.id)}`),
    ]
      .filter(Boolean)
      .join('\n'),
  );
  // `;failed`: a completed job with failed items not yet retried (Retry Failed Items).
  const retryable = state === 'completed' && !job.error && failed > 0 && job.retriedAs === undefined;
  // A job of a feature's own kind (search embeddings, document OCR) opens its results through that feature.
  const results = state === 'completed' && !job.error ? (job.kind === undefined ? 'results' : 'kindResults') : '';
  item.contextValue = `stratus.batchJob;${ended ? 'ended' : 'running'};${results}${retryable && job.kind === undefined ? ';failed' : ''}`;
  if (results === 'results') item.command = { command: Commands.batchOpenResults, title: vscode.l10n.t('Review Results'), arguments: [job.id] };
  if (results === 'kindResults') item.command = { command: Commands.batchOpenJobResults, title: vscode.l10n.t('Open Results'), arguments: [job.id] };
  return item;
}
