import 'uplot/dist/uPlot.min.css';
import './usage.css';
import { formatEur, formatInt, percent } from '../../core/usage/format';
import { isEmptyCompletion } from '../../core/usage/completionStats';
import { BATCH_CAP_NOTE, BATCH_ROW_LABEL, batchSentence, COMPLETION_LABELS, completionCells, describeForecast, NO_COMPLETIONS } from '../../core/usage/markdown';
import type { FromWebview, ToWebview } from '../../core/usage/protocol';
import type { CacheFeature, CapGauge, UsageSnapshot } from '../../core/usage/summary';
import { Chart } from './charts';
import { h } from '../shared/dom';

interface SavedState {
  snapshot?: UsageSnapshot;
}

const vscode = acquireVsCodeApi<FromWebview, SavedState>();
const root = document.getElementById('root') ?? document.body;

function isSnapshot(value: unknown): value is UsageSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Partial<UsageSnapshot>;
  return typeof s.at === 'number' && typeof s.hour === 'object' && typeof s.day === 'object' && typeof s.month === 'object' && typeof s.costs === 'object' && typeof s.charts === 'object' && typeof s.completion === 'object';
}

/** Messages from the extension, validated: anything else is ignored. */
function parseToWebview(value: unknown): ToWebview | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as { type?: unknown; snapshot?: unknown; text?: unknown };
  if (m.type === 'state' && isSnapshot(m.snapshot)) return { type: 'state', snapshot: m.snapshot };
  if (m.type === 'notice' && typeof m.text === 'string') return { type: 'notice', text: m.text };
  return undefined;
}

// ---- skeleton (built once, so focus and scroll survive updates) ----

const title = h('h2', { class: 'tier', id: 'tier' });
const settingsButton = h('button', { type: 'button', class: 'link', title: 'Open the stratus.usage settings' }, 'Settings');
const gauges = h('section', { class: 'gauges', 'aria-label': 'Caps and budget' });
const forecast = h('section', { class: 'forecast', 'aria-labelledby': 'forecast-h' });
const hoursHost = h('div', { class: 'chart', role: 'img' });
const daysHost = h('div', { class: 'chart', role: 'img' });
const kinds = h('section', { 'aria-labelledby': 'kinds-h' });
const models = h('section', { 'aria-labelledby': 'models-h' });
const completion = h('section', { class: 'completion', 'aria-labelledby': 'completion-h' });
const promptCache = h('section', { class: 'prompt-cache', 'aria-labelledby': 'cache-h' });
const rateLimit = h('section', { class: 'ratelimit', 'aria-labelledby': 'rl-h' });
const notice = h('p', { class: 'notice', role: 'status', 'aria-live': 'polite' });
const exportButton = h('button', { type: 'button' }, 'Export CSV');
const resetButton = h('button', { type: 'button', class: 'secondary' }, 'Reset statistics…');

const hoursChart = new Chart(hoursHost);
const daysChart = new Chart(daysHost);

function skeleton(): void {
  root.replaceChildren(
    h('header', {}, title, settingsButton),
    gauges,
    forecast,
    h('section', { 'aria-labelledby': 'hours-h' }, h('h3', { id: 'hours-h' }, 'Last 24 hours'), hoursHost),
    h('section', { 'aria-labelledby': 'days-h' }, h('h3', { id: 'days-h' }, 'Last 30 days'), daysHost),
    kinds,
    models,
    completion,
    promptCache,
    rateLimit,
    notice,
    h('footer', {}, exportButton, resetButton),
  );
  root.setAttribute('aria-busy', 'false');
  settingsButton.addEventListener('click', () => vscode.postMessage({ type: 'openSettings' }));
  exportButton.addEventListener('click', () => vscode.postMessage({ type: 'exportCsv' }));
  resetButton.addEventListener('click', () => vscode.postMessage({ type: 'reset' }));
}

function level(p: number | undefined): 'ok' | 'warn' | 'full' {
  if (p === undefined) return 'ok';
  return p >= 100 ? 'full' : p > 80 ? 'warn' : 'ok';
}

function gaugeRow(label: string, valueText: string, used: number, max: number | undefined, detail: string): HTMLElement {
  const p = percent(used, max);
  const bar = h('div', { class: `bar ${level(p)}` });
  bar.style.width = `${Math.min(100, p ?? 0).toFixed(1)}%`;
  const meter = h('div', {
    class: 'meter',
    role: 'meter',
    'aria-label': label,
    'aria-valuemin': 0,
    'aria-valuemax': max ?? used,
    'aria-valuenow': Math.round(used),
    'aria-valuetext': `${valueText}${p === undefined ? '' : `, ${p.toFixed(0)} percent`}`,
  }, bar);
  return h('div', { class: 'gauge' },
    h('div', { class: 'gauge-head' }, h('span', { class: 'label' }, label), h('span', { class: 'value' }, valueText)),
    meter,
    h('div', { class: 'muted small' }, detail),
  );
}

function capText(g: CapGauge): string {
  return g.cap === undefined ? `${formatInt(g.used)} (no fixed cap)` : `${formatInt(g.used)} / ${formatInt(g.cap)}`;
}

function table(caption: string, id: string, head: string[], rows: (string | number)[][], numericFrom = 1): HTMLElement {
  return h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-labelledby': id },
    h('table', {},
      h('caption', { id, class: 'sr-only' }, caption),
      h('thead', {}, h('tr', {}, ...head.map((c, i) => h('th', { scope: 'col', class: i >= numericFrom ? 'num' : undefined }, c)))),
      h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c, i) => (i === 0 ? h('th', { scope: 'row' }, String(c)) : h('td', { class: i >= numericFrom ? 'num' : undefined }, String(c))))))),
    ),
  );
}

function render(s: UsageSnapshot): void {
  title.textContent = `${s.tier.name} · ${s.tier.label}`;
  gauges.replaceChildren(
    gaugeRow('Output tokens this hour', capText(s.hour), s.hour.used, s.hour.cap, `Resets at ${s.hour.resetsAtLabel}`),
    gaugeRow('Output tokens today', capText(s.day), s.day.used, s.day.cap, `Resets ${s.day.resetsAtLabel}`),
    gaugeRow(
      `Spend in ${s.month.label}`,
      s.month.budgetEur === undefined ? `${formatEur(s.month.costEur)} (no budget)` : `${formatEur(s.month.costEur)} / ${formatEur(s.month.budgetEur)}`,
      s.month.costEur,
      s.month.budgetEur,
      s.month.creditEur === undefined || s.history.creditLeftEur === undefined
        ? 'Monthly billing'
        : `Upfront credit ${formatEur(s.month.creditEur)}, about ${formatEur(s.history.creditLeftEur)} left`,
    ),
    h('p', { class: 'muted small', id: 'batch-cap-note' }, BATCH_CAP_NOTE),
  );
  forecast.replaceChildren(
    h('h3', { id: 'forecast-h' }, 'Forecast'),
    h('p', { class: 'muted small' }, `At ${formatInt(s.forecast.outputTokensPerHour)} output tokens/hour and ${formatEur(s.forecast.eurPerHour)}/hour (last 60 minutes):`),
    h('dl', {},
      h('dt', {}, 'Hourly cap'), h('dd', {}, describeForecast(s.forecast.hourCap, 'hour')),
      h('dt', {}, 'Daily cap'), h('dd', {}, describeForecast(s.forecast.dayCap, 'day')),
      h('dt', {}, 'Monthly budget'), h('dd', {}, describeForecast(s.forecast.monthBudget, 'month')),
    ),
  );
  const hourTotal = s.charts.hours.output.reduce((a, b) => a + b, 0);
  hoursHost.setAttribute('aria-label', `Output and input tokens per hour over the last 24 hours; ${formatInt(hourTotal)} output tokens in all.`);
  hoursChart.update({
    kind: 'area',
    t: s.charts.hours.t,
    series: [
      { label: 'Output', values: s.charts.hours.output, color: '--vscode-charts-blue', fallback: '#3794ff' },
      { label: 'Input', values: s.charts.hours.input, color: '--vscode-charts-purple', fallback: '#b180d7' },
    ],
  });
  const dayTotal = s.charts.days.eur.reduce((a, b) => a + b, 0);
  daysHost.setAttribute('aria-label', `Cost per day over the last 30 days; ${formatEur(dayTotal)} in all.`);
  daysChart.update({
    kind: 'bars',
    money: true,
    t: s.charts.days.t,
    series: [{ label: 'Cost', values: s.charts.days.eur, color: '--vscode-charts-orange', fallback: '#d18616' }],
  });
  kinds.replaceChildren(
    h('h3', { id: 'kinds-h' }, `Cost by kind, ${s.month.label}`),
    table('Cost by kind this month', 'kinds-c', ['Kind', 'Quantity', 'EUR'], [
      ...s.costs.byKind.map((k) => [k.label, `${formatInt(k.quantity)}${k.unit === 'minute' ? ' min' : ''}`, formatEur(k.eur)]),
      ['Total', '', formatEur(s.costs.totalEur)],
    ]),
  );
  // Older snapshots (a state saved before batch work was metered) have no batch figures.
  const batch = s.batch as UsageSnapshot['batch'] | undefined;
  if (batch) {
    kinds.append(
      h('h3', { id: 'batch-h' }, BATCH_ROW_LABEL),
      table(`${BATCH_ROW_LABEL} this month`, 'batch-c', ['', 'Results', 'Tokens', 'EUR', 'At standard rates', 'Saved'], [
        [BATCH_ROW_LABEL, formatInt(batch.requests), formatInt(batch.inputTokens + batch.outputTokens), formatEur(batch.costEur), formatEur(batch.standardEur), formatEur(batch.savedEur)],
      ]),
      h('p', { class: 'muted small', id: 'batch-sentence' }, batchSentence(batch)),
    );
  }
  models.replaceChildren(
    h('h3', { id: 'models-h' }, 'Cost by model'),
    s.costs.byModel.length === 0
      ? h('p', { class: 'muted' }, 'No request metered this month yet.')
      : table('Cost by model this month', 'models-c', ['Model', 'Requests', 'Input', 'Output', 'Reasoning', 'EUR'], s.costs.byModel.map((m) => [m.model, formatInt(m.requests), formatInt(m.input + m.embeddings + m.rerankTokens), formatInt(m.output), formatInt(m.reasoning), formatEur(m.eur)])),
  );
  if (s.estimatedRequests > 0) models.append(h('p', { class: 'muted small' }, `${formatInt(s.estimatedRequests)} request(s) had no usage from the service: estimated.`));
  renderCompletion(s);
  renderPromptCache(s);
  const rl = s.rateLimit;
  rateLimit.replaceChildren(
    h('h3', { id: 'rl-h' }, 'Last rate-limit headers'),
    rl
      ? h('dl', {},
          h('dt', {}, 'Limit'), h('dd', {}, rl.limitRequests === undefined ? '–' : formatInt(rl.limitRequests)),
          h('dt', {}, 'Remaining'), h('dd', {}, rl.remainingRequests === undefined ? '–' : formatInt(rl.remainingRequests)),
          h('dt', {}, 'Resets'), h('dd', {}, rl.resetAtLabel ?? '–'),
        )
      : h('p', { class: 'muted' }, 'None yet.'),
  );
}

const FEATURE_LABELS: Readonly<Record<CacheFeature, string>> = {
  chat: 'Chat and agent',
  completion: 'Inline completion',
  edit: 'Edit by instruction',
  commit: 'Commit messages',
  review: 'Review Changes',
  nextEdit: 'Next edit suggestions',
  ocr: 'Document reading (OCR)',
  earlier: 'Earlier (not split by feature)',
};

/** The share of prompt tokens the service served from its prompt cache this month, in all and per feature. */
function renderPromptCache(s: UsageSnapshot): void {
  const cache = s.promptCache as UsageSnapshot['promptCache'] | undefined;
  if (!cache || cache.all.promptTokens === 0) {
    promptCache.replaceChildren(h('h3', { id: 'cache-h' }, 'Prompt cache'), h('p', { class: 'muted' }, 'No prompt tokens metered this month yet.'));
    return;
  }
  const share = (c: { promptTokens: number; cachedTokens: number }): string => (c.promptTokens > 0 ? `${Math.round((c.cachedTokens / c.promptTokens) * 100)} %` : '-');
  const rows = [...(cache.byFeature ?? []).map((c) => [FEATURE_LABELS[c.feature], c] as const), ['All', cache.all] as const];
  promptCache.replaceChildren(
    h('h3', { id: 'cache-h' }, `Prompt cache, ${s.month.label}`),
    table('Prompt tokens served from the prompt cache this month', 'cache-c', ['Feature', 'Prompt tokens', 'From cache', 'Share'], rows.map(([label, c]) => [label, formatInt(c.promptTokens), formatInt(c.cachedTokens), share(c)])),
  );
}

/** Inline completion: what it was asked, what was shown and accepted, and what an accepted line costs. */
function renderCompletion(s: UsageSnapshot): void {
  const { hour, day, month } = s.completion;
  if (isEmptyCompletion(month)) {
    completion.replaceChildren(h('h3', { id: 'completion-h' }, 'Inline completion'), h('p', { class: 'muted' }, NO_COMPLETIONS));
    return;
  }
  const cells = [hour, day, month].map(completionCells);
  completion.replaceChildren(
    h('h3', { id: 'completion-h' }, 'Inline completion'),
    table('Inline completion this hour, today and this month', 'completion-c', ['', 'This hour', 'Today', s.month.label], COMPLETION_LABELS.map((label, i) => [label, ...cells.map((c) => c[i] ?? '')])),
    h('p', { class: 'muted small' }, `${s.month.label}: ${formatInt(month.sent)} request(s) sent, ${formatInt(month.tokens)} tokens, ${formatEur(month.costEur)}; ${formatInt(month.acceptedChars)} character(s) in ${formatInt(month.acceptedLines)} line(s) accepted.`),
    h('p', { class: 'muted small next-edit' }, `Next edit suggestions, ${s.month.label}: ${formatInt(month.nextEdit.sent)} request(s) sent, ${formatInt(month.nextEdit.tokens)} tokens, ${formatEur(month.nextEdit.costEur)} (today: ${formatInt(day.nextEdit.sent)}, this hour: ${formatInt(hour.nextEdit.sent)}).`),
  );
}

// ---- lifecycle ----

let painted = false;
function show(snapshot: UsageSnapshot): void {
  render(snapshot);
  vscode.setState({ snapshot });
  if (!painted) {
    painted = true;
    requestAnimationFrame(() => vscode.postMessage({ type: 'painted', ms: performance.now() }));
  }
}

skeleton();
// State kept while hidden: the last snapshot is drawn at once, then the extension sends a fresh one.
const saved = vscode.getState();
if (saved?.snapshot && isSnapshot(saved.snapshot)) render(saved.snapshot);

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseToWebview(event.data);
  if (!message) return;
  if (message.type === 'state') {
    notice.textContent = '';
    show(message.snapshot);
  } else {
    notice.textContent = message.text;
  }
});

// Theme change: VS Code swaps the body's classes; charts read colours when drawn, so redraw.
new MutationObserver(() => {
  hoursChart.redraw();
  daysChart.redraw();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

new ResizeObserver(() => {
  hoursChart.resize();
  daysChart.resize();
}).observe(root);

vscode.postMessage({ type: 'ready' });
