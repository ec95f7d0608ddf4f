import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { TIERS } from '../core/usage/rates';
import { DEFAULT_USAGE_SETTINGS } from '../core/usage/settings';
import { UsageStore } from '../core/usage/store';
import { summarize } from '../core/usage/summary';
import { guarded, jsonResult, type ToolKit } from './toolKit';

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** get_usage: the tier's caps, and what this machine metered when the extension gave its usage folder. */
export function registerUsageTool(server: McpServer, kit: ToolKit): RegisteredTool {
  return server.registerTool(
    'get_usage',
    {
      title: 'Get usage and limits',
      description: 'The purchased tier\'s limits (output tokens per hour and per day, monthly budget, upfront credit) and, when this server was started by the Stratus VS Code extension, what this machine has used: output tokens this hour and today against the caps, and this month\'s spend in EUR.',
      inputSchema: {},
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false, title: 'Get usage and limits' },
    },
    () =>
      guarded(kit, () => ({ what: 'Reading usage' }), async () => {
        const tier = TIERS[kit.options.tier];
        const caps = {
          tier: tier.name,
          outputTokensPerHour: tier.outputTokensPerHour ?? null,
          outputTokensPerDay: tier.outputTokensPerDay ?? null,
          monthlyLimitEur: tier.monthlyLimitEur ?? null,
          upfrontCreditEur: tier.upfrontCreditEur ?? null,
        };
        if (!kit.options.usageDir) return jsonResult(kit, { caps, metered: null, note: 'Metered figures are available only when the Stratus extension starts this server.' });
        const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
        // Reading only: the extension's windows own the folder's writes and compactions.
        const { ledger } = await new UsageStore({ dir: kit.options.usageDir, timeZone, writerId: 'mcp-reader', now: kit.now }).load();
        const s = summarize(ledger, { ...DEFAULT_USAGE_SETTINGS, tier: kit.options.tier }, kit.now());
        return jsonResult(kit, {
          caps,
          metered: {
            hour: { outputTokens: s.hour.used, cap: s.hour.cap ?? null, resetsAt: new Date(s.hour.resetsAt).toISOString() },
            day: { outputTokens: s.day.used, cap: s.day.cap ?? null, resetsAt: new Date(s.day.resetsAt).toISOString() },
            month: { label: s.month.label, costEur: round2(s.month.costEur), budgetEur: s.month.budgetEur ?? null, outputTokens: s.month.outputTokens },
          },
        });
      }),
  );
}
