import { CONTRACT_EUR_PER_UNIT, costByKind, totalCost, type EurPerUnit } from './cost';
import { COUNTER_KEYS, type Ledger } from './ledger';
import { formatDate, localParts } from './time';

function field(value: string | number): string {
  const text = String(value);
  // Quote, and defuse spreadsheet formulas from model ids.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Every stored bucket as CSV rows (oldest first), with its cost in EUR. */
export function usageCsv(ledger: Ledger, rates: EurPerUnit = CONTRACT_EUR_PER_UNIT): string {
  const tz = ledger.timeZone;
  const header = ['start_local', 'start_utc', 'granularity', 'model', ...COUNTER_KEYS, 'cost_input_eur', 'cost_cached_input_eur', 'cost_output_eur', 'cost_reasoning_eur', 'cost_embeddings_eur', 'cost_rerank_eur', 'cost_audio_eur', 'cost_batch_eur', 'cost_total_eur'];
  const rows = [header.join(',')];
  const grains = { m: 'minute', h: 'hour', d: 'day' } as const;
  for (const b of ledger.all().sort((a, b2) => a.s - b2.s || a.m.localeCompare(b2.m))) {
    const p = localParts(b.s, tz);
    const local = `${formatDate(b.s, tz)} ${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
    const k = costByKind(b.c, rates);
    rows.push([
      field(local),
      field(new Date(b.s).toISOString()),
      field(grains[b.g]),
      field(b.m),
      ...COUNTER_KEYS.map((key) => field(b.c[key])),
      ...[k.input, k.cachedInput, k.output, k.reasoning, k.embeddings, k.rerank, k.audio, k.batchInput + k.batchOutput, totalCost(b.c, rates)].map((v) => field(v.toFixed(6))),
    ].join(','));
  }
  return rows.join('\n') + '\n';
}
