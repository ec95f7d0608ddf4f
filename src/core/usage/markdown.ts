import { formatEur, formatInt, percent } from './format';
import { isEmptyCompletion, type CompletionFigures } from './completionStats';
import type { BatchFigures, ForecastItem, UsageSnapshot } from './summary';

/** Where the caps are shown: batch work is billed but not capped (the Usage view, the status bar, `/usage`). */
export const BATCH_CAP_NOTE = 'Batch work (half price) is not counted against the hourly or daily cap.';

/** The "Batch (half price)" row's label, and its sentence (this month's figures and the money saved). */
export const BATCH_ROW_LABEL = 'Batch (half price)';

export function batchSentence(b: BatchFigures): string {
  if (b.requests === 0) return 'No batch work this month.';
  return `${formatInt(b.requests)} result(s), ${formatInt(b.inputTokens)} input and ${formatInt(b.outputTokens)} output tokens: ${formatEur(b.costEur)} (${formatEur(b.standardEur)} at standard rates, ${formatEur(b.savedEur)} saved).`;
}

export function describeForecast(item: ForecastItem, window: string): string {
  switch (item.state) {
    case 'noLimit':
      return 'no limit';
    case 'reached':
      return 'reached';
    case 'at':
      return `at ${item.label}`;
    case 'notThisWindow':
      return `not this ${window}`;
    case 'idle':
      return 'no activity in the last hour';
  }
}

function gauge(used: number, cap: number | undefined): string {
  if (cap === undefined) return `${formatInt(used)} (no fixed cap)`;
  return `${formatInt(used)} / ${formatInt(cap)} (${(percent(used, cap) ?? 0).toFixed(1)} %)`;
}

/** Escapes text from the outside (model ids) for a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/[\\|*_`[\]<>]/g, (c) => `\\${c}`);
}

/** Share as "42.0 %". */
function share(rate: number | undefined): string {
  return rate === undefined ? 'n/a' : `${(rate * 100).toFixed(1)} %`;
}

/** The Completion section's labels, in the order of `completionCells` (the view shows the same). */
export const COMPLETION_LABELS = ['Requests', 'Shown', 'Accepted', 'Acceptance rate', 'Tokens per accepted character', 'Cost per accepted line'] as const;

/** The figures of `COMPLETION_LABELS`, formatted ('n/a' when nothing was shown or accepted). */
export function completionCells(f: CompletionFigures): string[] {
  return [
    formatInt(f.requests),
    formatInt(f.shown),
    formatInt(f.accepted),
    share(f.acceptanceRate),
    f.tokensPerAcceptedChar === undefined ? 'n/a' : f.tokensPerAcceptedChar.toFixed(1),
    f.eurPerAcceptedLine === undefined ? 'n/a' : formatEur(f.eurPerAcceptedLine),
  ];
}

export const NO_COMPLETIONS = 'No inline completions yet.';

/** The Completion section (this month): the same figures as the Usage view's. */
export function completionMarkdown(f: CompletionFigures): string[] {
  if (isEmptyCompletion(f)) return [`**Inline completion this month:** ${NO_COMPLETIONS.toLowerCase()}`];
  return [
    '**Inline completion this month**',
    '',
    `| ${COMPLETION_LABELS.join(' | ')} |`,
    `|${COMPLETION_LABELS.map(() => '---').join('|')}|`,
    `| ${completionCells(f).join(' | ')} |`,
    '',
    `${formatInt(f.sent)} request(s) sent, ${formatInt(f.tokens)} tokens, ${formatEur(f.costEur)}; ${formatInt(f.acceptedChars)} character(s) in ${formatInt(f.acceptedLines)} line(s) accepted.`,
    nextEditLine(f),
  ];
}

/** Next edit suggestions' requests, tokens and cost, after the inline ones. */
export function nextEditLine(f: CompletionFigures): string {
  return `Next edit suggestions: ${formatInt(f.nextEdit.sent)} request(s) sent, ${formatInt(f.nextEdit.tokens)} tokens, ${formatEur(f.nextEdit.costEur)}.`;
}

/** `@stratus /usage`: the same figures as the Usage view, in Markdown. */
export function usageMarkdown(s: UsageSnapshot): string {
  const lines: string[] = [];
  lines.push(`**${s.tier.name}** (${s.tier.label}), figures metered by Stratus in ${s.timeZone}.`, '');
  lines.push('| Window | Output tokens | Resets |', '|---|---|---|');
  lines.push(`| This hour | ${gauge(s.hour.used, s.hour.cap)} | ${s.hour.resetsAtLabel} |`);
  lines.push(`| Today | ${gauge(s.day.used, s.day.cap)} | ${s.day.resetsAtLabel} |`, '', `_${BATCH_CAP_NOTE}_`, '');
  const budget = s.month.budgetEur === undefined ? 'no budget' : `budget ${formatEur(s.month.budgetEur)} (${(percent(s.month.costEur, s.month.budgetEur) ?? 0).toFixed(1)} %)`;
  lines.push(`**Month ${s.month.label}:** ${formatEur(s.month.costEur)} spent, ${budget}.`);
  if (s.history.creditLeftEur !== undefined && s.month.creditEur !== undefined) {
    lines.push(`Upfront credit ${formatEur(s.month.creditEur)}: about ${formatEur(s.history.creditLeftEur)} left after the ${formatEur(s.history.costEur)} metered.`);
  }
  lines.push('', '| Kind | Quantity | Cost |', '|---|---|---|');
  for (const row of s.costs.byKind) {
    lines.push(`| ${row.label} | ${formatInt(row.quantity)}${row.unit === 'minute' ? ' min' : ''} | ${formatEur(row.eur)} |`);
  }
  lines.push(`| **Total** | | **${formatEur(s.costs.totalEur)}** |`);
  lines.push('', `**${BATCH_ROW_LABEL} this month:** ${batchSentence(s.batch)}`);
  if (s.costs.byModel.length > 0) {
    lines.push('', '| Model | Requests | Input | Output | Reasoning | Cost |', '|---|---|---|---|---|---|');
    for (const m of s.costs.byModel) {
      lines.push(`| ${cell(m.model)} | ${formatInt(m.requests)} | ${formatInt(m.input + m.embeddings + m.rerankTokens)} | ${formatInt(m.output)} | ${formatInt(m.reasoning)} | ${formatEur(m.eur)} |`);
    }
  }
  lines.push('', `**Forecast** at ${formatInt(s.forecast.outputTokensPerHour)} output tokens/hour (${formatEur(s.forecast.eurPerHour)}/hour): hourly cap ${describeForecast(s.forecast.hourCap, 'hour')}, daily cap ${describeForecast(s.forecast.dayCap, 'day')}, monthly budget ${describeForecast(s.forecast.monthBudget, 'month')}.`);
  lines.push('', ...completionMarkdown(s.completion.month));
  if (s.rateLimit) {
    const rl = s.rateLimit;
    lines.push('', `Last rate-limit headers: limit ${rl.limitRequests ?? '?'}, remaining ${rl.remainingRequests ?? '?'}${rl.resetAtLabel ? `, resets at ${rl.resetAtLabel}` : ''}.`);
  }
  if (s.estimatedRequests > 0) lines.push('', `_${formatInt(s.estimatedRequests)} request(s) this month had no usage from the service (cancelled or interrupted answers included: what was generated is billed); their figures are estimated._`);
  return lines.join('\n');
}
