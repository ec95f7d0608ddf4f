import { completionFigures, type CompletionFigures } from './completionStats';
import { costByKind, eurPerUnit, quantities, totalCost, type EurPerUnit } from './cost';
import type { GenerationKind } from './events';
import { cappedOutput, FEATURE_PROMPT_COUNTERS, type Bucket, type Counters, type Ledger } from './ledger';
import { BATCH_KINDS, COST_KINDS, RATES, type CostKind, type TierId } from './rates';
import { budgetOf, creditOf, tierOf, type UsageSettings } from './settings';
import { isTime } from './validate';
import { formatClock, formatDate, HOUR_MS, startOfDay, startOfHour, startOfMonth, startOfNextDay, startOfNextMonth } from './time';

/** When a limit will be reached at the current pace. */
export type ForecastItem =
  | { state: 'noLimit' }
  | { state: 'reached' }
  /** Reached at `at` (Unix ms), `label` local "HH:MM" or "YYYY-MM-DD HH:MM". */
  | { state: 'at'; at: number; label: string }
  /** Not before the window resets at the current pace. */
  | { state: 'notThisWindow' }
  /** Nothing used in the last hour: no pace to project. */
  | { state: 'idle' };

export interface CapGauge {
  /** Output tokens (reasoning included) in the window. */
  used: number;
  cap: number | undefined;
  /** End of the window, Unix ms, and its local clock "HH:MM" (or date for the day). */
  resetsAt: number;
  resetsAtLabel: string;
}

export interface KindRow { kind: CostKind; label: string; quantity: number; unit: 'token' | 'minute'; eur: number }
export interface ModelRow { model: string; requests: number; input: number; output: number; reasoning: number; embeddings: number; rerankTokens: number; searchUnits: number; audioMinutes: number; estimated: number; eur: number }

/** Everything the Usage view, the status bar, `/usage` and the CSV show: plain JSON. */
export interface UsageSnapshot {
  at: number;
  timeZone: string;
  tier: { id: TierId; name: string; label: string };
  hour: CapGauge;
  day: CapGauge;
  month: { label: string; costEur: number; budgetEur: number | undefined; creditEur: number | undefined; outputTokens: number; resetsAt: number };
  /** Spend over the whole stored history (at most 400 days), against the upfront credit. */
  history: { costEur: number; since: number | undefined; creditLeftEur: number | undefined };
  costs: { byKind: KindRow[]; byModel: ModelRow[]; totalEur: number };
  rateLimit: { at: number; limitRequests?: number | undefined; remainingRequests?: number | undefined; resetAt?: number | undefined; resetAtLabel?: string | undefined } | undefined;
  forecast: { outputTokensPerHour: number; eurPerHour: number; hourCap: ForecastItem; dayCap: ForecastItem; monthBudget: ForecastItem };
  charts: {
    /** Last 24 local hours: start of each hour, output and input tokens. */
    hours: { t: number[]; output: number[]; input: number[] };
    /** Last 30 local days: start of each day, EUR and output tokens. */
    days: { t: number[]; eur: number[]; output: number[] };
  };
  /** Requests whose usage was estimated, this month. */
  estimatedRequests: number;
  /** Inline (ghost-text) completion: requests, acceptance and cost, per window. */
  completion: { hour: CompletionFigures; day: CompletionFigures; month: CompletionFigures };
  /**
   * This month's prompt tokens and those served from the prompt cache, in all and per feature
   * (the features that sent prompts this month, in a fixed order; `earlier` for prompts stored
   * before the per-feature counters, whose feature is unknown).
   */
  promptCache: { all: CacheShare; byFeature: FeatureCacheShare[] };
  /**
   * This month's asynchronous batch work: its results and tokens, what it cost at the batch rates,
   * what the same tokens cost at the standard rates, and the difference. Not in the caps' gauges.
   */
  batch: BatchFigures;
}

export interface BatchFigures { requests: number; inputTokens: number; outputTokens: number; costEur: number; standardEur: number; savedEur: number }

/** The batch work of `c`: at its rates, and at the standard rates of the kinds it halves. */
export function batchFigures(c: Counters, rates: EurPerUnit): BatchFigures {
  const byKind = costByKind(c, rates);
  let costEur = 0;
  let standardEur = 0;
  for (const [kind, standard] of Object.entries(BATCH_KINDS) as [keyof typeof BATCH_KINDS, CostKind][]) {
    costEur += byKind[kind];
    standardEur += quantities(c)[kind] * rates[standard];
  }
  return { requests: c.batchRequests, inputTokens: c.batchInput, outputTokens: c.batchOutput, costEur, standardEur, savedEur: standardEur - costEur };
}

/** Prompt tokens and the cached part of them. */
export interface CacheShare { promptTokens: number; cachedTokens: number }
/** A feature, or `earlier`: prompts stored before the per-feature counters, whose feature is unknown. */
export type CacheFeature = GenerationKind | 'earlier';
export interface FeatureCacheShare extends CacheShare { feature: CacheFeature }

/** The order features are listed in. */
const FEATURE_ORDER: readonly CacheFeature[] = ['chat', 'completion', 'edit', 'commit', 'review', 'nextEdit', 'ocr', 'earlier'];

function promptCache(c: Counters): UsageSnapshot['promptCache'] {
  const shares = new Map<CacheFeature, CacheShare>([
    ['completion', { promptTokens: c.inlineInput, cachedTokens: c.inlineCached }],
    ['earlier', { promptTokens: c.unsplitInput, cachedTokens: c.unsplitCached }],
  ]);
  for (const [feature, keys] of Object.entries(FEATURE_PROMPT_COUNTERS) as [GenerationKind, { input: keyof Counters; cached: keyof Counters }][]) {
    shares.set(feature, { promptTokens: c[keys.input], cachedTokens: c[keys.cached] });
  }
  // Chat and the agent: every prompt no other feature counted (nor stored before the split).
  let promptTokens = c.input;
  let cachedTokens = c.cachedInput;
  for (const share of shares.values()) {
    promptTokens -= share.promptTokens;
    cachedTokens -= share.cachedTokens;
  }
  shares.set('chat', { promptTokens: Math.max(0, promptTokens), cachedTokens: Math.max(0, cachedTokens) });
  return {
    all: { promptTokens: c.input, cachedTokens: c.cachedInput },
    byFeature: FEATURE_ORDER.flatMap((feature) => {
      const share = shares.get(feature);
      return share && share.promptTokens > 0 ? [{ feature, ...share }] : [];
    }),
  };
}

function forecast(used: number, limit: number | undefined, ratePerHour: number, now: number, windowEnd: number, label: (ms: number) => string): ForecastItem {
  if (limit === undefined) return { state: 'noLimit' };
  if (used >= limit) return { state: 'reached' };
  if (ratePerHour <= 0) return { state: 'idle' };
  const at = now + ((limit - used) / ratePerHour) * HOUR_MS;
  return at >= windowEnd ? { state: 'notThisWindow' } : { state: 'at', at: Math.round(at), label: label(at) };
}

/** The first bucket's start (a loop: spreading thousands of buckets into Math.min overflows). */
function earliest(buckets: readonly Bucket[]): number | undefined {
  let first: number | undefined;
  for (const b of buckets) if (first === undefined || b.s < first) first = b.s;
  return first;
}

function modelRow(model: string, c: Counters, rates: EurPerUnit): ModelRow {
  return {
    model: model === '' ? '(unknown)' : model,
    requests: c.requests,
    input: c.input,
    output: c.output,
    reasoning: c.reasoning,
    embeddings: c.embeddings,
    rerankTokens: c.rerankTokens,
    searchUnits: c.searchUnits,
    audioMinutes: c.audioMinutes,
    estimated: c.estimated,
    eur: totalCost(c, rates),
  };
}

/** Computes every figure from the ledger at `now`, in the ledger's time zone. */
export function summarize(ledger: Ledger, settings: UsageSettings, now: number): UsageSnapshot {
  const tz = ledger.timeZone;
  const tier = tierOf(settings);
  const hourStart = startOfHour(now, tz);
  const hourEnd = hourStart + HOUR_MS;
  const dayStart = startOfDay(now, tz);
  const dayEnd = startOfNextDay(now, tz);
  const monthStart = startOfMonth(now, tz);
  const monthEnd = startOfNextMonth(now, tz);
  const hour = ledger.total(hourStart, hourEnd);
  const day = ledger.total(dayStart, dayEnd);
  const month = ledger.total(monthStart, monthEnd);
  const lastHour = ledger.total(now - HOUR_MS, now + 1);
  const all = ledger.all();
  const history = ledger.total(-Infinity, Infinity);
  const budget = budgetOf(settings);
  const credit = creditOf(settings);
  const rates = eurPerUnit(settings.cachedInputEurPerMillion);

  const byKindEur = costByKind(month, rates);
  const q = quantities(month);
  const byKind: KindRow[] = COST_KINDS.map((kind) => ({ kind, label: RATES[kind].label, quantity: q[kind], unit: RATES[kind].unit, eur: byKindEur[kind] }));
  // A model with inline statistics only (no request this month) gets no row.
  const byModel = [...ledger.byModel(monthStart, monthEnd)].filter(([, c]) => c.requests > 0).map(([m, c]) => modelRow(m, c, rates)).sort((a, b) => b.eur - a.eur || a.model.localeCompare(b.model));
  const monthCost = totalCost(month, rates);
  const historyCost = totalCost(history, rates);

  const rate = cappedOutput(lastHour);
  const eurRate = totalCost(lastHour, rates);
  const clock = (ms: number): string => formatClock(ms, tz);
  const dated = (ms: number): string => `${formatDate(ms, tz)} ${formatClock(ms, tz)}`;

  const hoursT: number[] = [];
  const hoursOut: number[] = [];
  const hoursIn: number[] = [];
  for (let i = 23; i >= 0; i--) {
    const s = startOfHour(hourStart - i * HOUR_MS + HOUR_MS / 2, tz);
    const c = ledger.total(s, s + HOUR_MS);
    hoursT.push(s);
    hoursOut.push(cappedOutput(c));
    hoursIn.push(c.input + c.embeddings + c.rerankTokens);
  }
  const daysT: number[] = [];
  const daysEur: number[] = [];
  const daysOut: number[] = [];
  let d = dayStart;
  const starts: number[] = [];
  for (let i = 0; i < 30; i++) {
    starts.unshift(d);
    d = startOfDay(d - HOUR_MS * 12, tz);
  }
  for (const s of starts) {
    const c = ledger.total(s, startOfNextDay(s + HOUR_MS * 12, tz));
    daysT.push(s);
    daysEur.push(totalCost(c, rates));
    daysOut.push(cappedOutput(c));
  }

  const rl = ledger.rateLimit;
  return {
    at: now,
    timeZone: tz,
    tier: { id: tier.id, name: tier.name, label: tier.label },
    hour: { used: cappedOutput(hour), cap: tier.outputTokensPerHour, resetsAt: hourEnd, resetsAtLabel: clock(hourEnd) },
    day: { used: cappedOutput(day), cap: tier.outputTokensPerDay, resetsAt: dayEnd, resetsAtLabel: dated(dayEnd) },
    month: { label: formatDate(now, tz).slice(0, 7), costEur: monthCost, budgetEur: budget, creditEur: credit, outputTokens: cappedOutput(month), resetsAt: monthEnd },
    history: {
      costEur: historyCost,
      since: earliest(all),
      creditLeftEur: credit === undefined ? undefined : credit - historyCost,
    },
    costs: { byKind, byModel, totalEur: monthCost },
    rateLimit: rl && {
      at: rl.at,
      limitRequests: rl.limitRequests,
      remainingRequests: rl.remainingRequests,
      resetAt: rl.resetAt,
      resetAtLabel: isTime(rl.resetAt) ? clock(rl.resetAt) : undefined,
    },
    forecast: {
      outputTokensPerHour: rate,
      eurPerHour: eurRate,
      hourCap: forecast(cappedOutput(hour), tier.outputTokensPerHour, rate, now, hourEnd, clock),
      dayCap: forecast(cappedOutput(day), tier.outputTokensPerDay, rate, now, dayEnd, clock),
      monthBudget: forecast(monthCost, budget, eurRate, now, monthEnd, dated),
    },
    charts: { hours: { t: hoursT, output: hoursOut, input: hoursIn }, days: { t: daysT, eur: daysEur, output: daysOut } },
    estimatedRequests: month.estimated,
    completion: { hour: completionFigures(hour, rates), day: completionFigures(day, rates), month: completionFigures(month, rates) },
    promptCache: promptCache(month),
    batch: batchFigures(month, rates),
  };
}

/** Above this share of a cap the status bar turns to the warning colour. */
export const WARN_PERCENT = 80;

export type UsageLevel = 'normal' | 'warning' | 'error';

/** The status bar's colour: error at the hour's or the day's cap, warning above 80 % of it. */
export function levelOf(s: UsageSnapshot): UsageLevel {
  const share = (g: CapGauge): number => (g.cap === undefined || g.cap <= 0 ? 0 : (g.used / g.cap) * 100);
  const p = Math.max(share(s.hour), share(s.day));
  return p >= 100 ? 'error' : p > WARN_PERCENT ? 'warning' : 'normal';
}
