import assert from 'node:assert/strict';
import { usageCsv } from '../../../src/core/usage/csv';
import { Ledger } from '../../../src/core/usage/ledger';
import { usageMarkdown } from '../../../src/core/usage/markdown';
import { parseFromWebview } from '../../../src/core/usage/protocol';
import { parseUsageSettings } from '../../../src/core/usage/settings';
import { summarize } from '../../../src/core/usage/summary';

const NOW = Date.parse('2026-04-14T10:20:00Z');

function ledger(): Ledger {
  const l = new Ledger('UTC');
  l.add({ kind: 'chat', at: NOW - 60_000, model: 'gpt-oss:120b', promptTokens: 1000, completionTokens: 500, reasoningTokens: 100, estimated: false });
  l.add({ kind: 'chat', at: NOW - 60_000, model: '=cmd|x', promptTokens: 10, completionTokens: 5, reasoningTokens: 0, estimated: true });
  l.add({ kind: 'rateLimit', at: NOW, limitRequests: 150_000, remainingRequests: 149_495, resetAt: NOW + 40 * 60_000 });
  return l;
}

describe('usage reports', () => {
  it('answers /usage in Markdown with the view\'s figures, escaping model ids', () => {
    const md = usageMarkdown(summarize(ledger(), parseUsageSettings({ tier: 'tier2' }), NOW));
    assert.match(md, /\*\*Tier 2\*\* \(professional\)/);
    assert.match(md, /\| This hour \| 505 \/ 300 000 \(0\.2 %\) \| 11:00 \|/);
    assert.match(md, /\| gpt-oss:120b \| 1 \| 1 000 \| 400 \| 100 \|/);
    assert.match(md, /\| =cmd\\\|x \|/);
    assert.match(md, /limit 150000, remaining 149495, resets at 11:00/);
    assert.match(md, /1 request\(s\) this month had no usage/);
  });

  it('exports CSV with costs and defuses formulas', () => {
    const csv = usageCsv(ledger());
    const [header, ...rows] = csv.trim().split('\n');
    assert.match(header ?? '', /^start_local,start_utc,granularity,model,requests,input,output,reasoning/);
    assert.equal(rows.length, 2);
    assert.ok(rows.some((r) => r.includes(`"'=cmd|x"`) || r.includes("'=cmd|x")));
    const gpt = rows.find((r) => r.includes('gpt-oss'));
    assert.ok(gpt?.endsWith(',0.005800'), gpt);
  });

  it('accepts only known webview messages', () => {
    assert.deepEqual(parseFromWebview({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseFromWebview({ type: 'painted', ms: 12.5 }), { type: 'painted', ms: 12.5 });
    for (const bad of [null, 'ready', [], { type: 'eval' }, { type: 'painted', ms: -1 }, { type: 'painted', ms: 'x' }, { type: 'reset', extra: () => 1 }]) {
      const parsed = parseFromWebview(bad);
      if (bad !== null && typeof bad === 'object' && !Array.isArray(bad) && (bad as { type?: unknown }).type === 'reset') assert.deepEqual(parsed, { type: 'reset' });
      else assert.equal(parsed, undefined, JSON.stringify(bad));
    }
  });
});
