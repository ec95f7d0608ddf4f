import type { ChatMessage } from '../../inference/index';
import { summaryProblem, type SummaryAnswer, type SummaryProblem } from './answer';
import { completeSummary, planCompaction, type CompactionBudget, type CompactionPlan } from './planner';
import type { SummaryStore } from './store';
import type { SummaryRequest } from './summary';

/**
 * Runs the planner to a request that fits: answers its summary requests through `summarise` (one
 * model request each, stored for the conversation), and when what is never summarised does not fit
 * beside the answer's room, leaves the answer less room (halving max_tokens down to
 * `minReserveTokens`) before giving up. An answer that is no summary (cut, or empty: answer.ts) is
 * not stored: the request goes out without one (old results elided, the messages it would have
 * replaced left out with a note), and the outcome says why. Shared by the @stratus turn and the language-model provider
 * VS Code's own agent mode uses.
 */

export type SendPlan = Extract<CompactionPlan, { action: 'send' }>;

export interface CompactDeps {
  readonly store: SummaryStore;
  readonly conversationId: string;
  /** One model request: its answer (a ChatResult will do). */
  summarise(request: SummaryRequest): Promise<SummaryAnswer>;
}

export interface CompactOptions {
  /** `/compact`: summarise everything not yet summarised, even if it fits. */
  readonly force?: boolean;
  /** The least max_tokens a request is sent with. Default 512. */
  readonly minReserveTokens?: number;
}

export type CompactOutcome =
  | {
      readonly kind: 'send';
      readonly plan: SendPlan;
      readonly maxTokens: number;
      readonly summariesMade: number;
      /** A summary was asked for and its answer was no summary: nothing stored, tell the user. */
      readonly summaryFailed?: SummaryProblem;
    }
  | { readonly kind: 'too-large'; readonly promptTokens: number; readonly limit: number }
  /** The planner kept asking for summaries (a model that answers with ever longer ones). */
  | { readonly kind: 'no-progress' };

const MAX_STEPS = 8;

export async function compactToFit(messages: readonly ChatMessage[], budget: CompactionBudget, deps: CompactDeps, options: CompactOptions = {}): Promise<CompactOutcome> {
  const minReserve = Math.max(1, options.minReserveTokens ?? 512);
  let reserveTokens = budget.reserveTokens;
  let force = options.force === true;
  let made = 0;
  let failed: SummaryProblem | undefined;
  for (let step = 0; step < MAX_STEPS; step++) {
    const plan = planCompaction(messages, { ...budget, reserveTokens }, { summaries: deps.store.get(deps.conversationId), force, leaveOut: failed !== undefined });
    force = false;
    switch (plan.action) {
      case 'send':
        return { kind: 'send', plan, maxTokens: reserveTokens, summariesMade: made, ...(failed ? { summaryFailed: failed } : {}) };
      case 'too-large':
        if (reserveTokens <= minReserve) return { kind: 'too-large', promptTokens: plan.promptTokens, limit: plan.limit };
        reserveTokens = Math.max(minReserve, Math.floor(reserveTokens / 2));
        break;
      case 'summarise': {
        const answer = await deps.summarise(plan.request);
        failed = summaryProblem(answer);
        if (failed) break;
        deps.store.put(deps.conversationId, completeSummary(plan.pending, answer.text, budget.maxModelLen));
        made++;
        break;
      }
    }
  }
  return { kind: 'no-progress' };
}
