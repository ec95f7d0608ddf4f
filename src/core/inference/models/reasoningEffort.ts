import { isRecord } from '../../json';
import { mostSpecific } from './modelPattern';

/**
 * Reasoning effort per model (`stratus.models.reasoningEffort`: id or glob to an effort), and how
 * each model family takes it. Families differ: gpt-oss reads `reasoning_effort`; Qwen3 and Granite
 * only switch thinking on or off through their chat template (`chat_template_kwargs`); DeepSeek-R1
 * always thinks and takes nothing. The table is explicit, one row per family, each tested.
 */
export type ReasoningEffort = 'off' | 'low' | 'medium' | 'high';

export const REASONING_EFFORTS: readonly ReasoningEffort[] = ['off', 'low', 'medium', 'high'];

export function isReasoningEffort(value: unknown): value is ReasoningEffort {
  return typeof value === 'string' && (REASONING_EFFORTS as readonly string[]).includes(value);
}

/** How a family is told the effort. */
export type EffortControl =
  /** `reasoning_effort: low|medium|high`; "off" is sent as `low`, the least such a model thinks. */
  | 'reasoningEffort'
  /** `chat_template_kwargs: {enable_thinking}`: on for any effort, off for "off". */
  | 'enableThinking'
  /** `chat_template_kwargs: {thinking}` (Granite): on for any effort, off for "off". */
  | 'thinking'
  /** Nothing can be sent: the model always reasons the same way. */
  | 'none';

export interface ReasoningFamily {
  readonly family: string;
  readonly pattern: RegExp;
  readonly control: EffortControl;
  /**
   * Whether the assistant's reasoning goes back to the server with its tool calls in the next
   * round. The contract (field notes): clients strip it from history, the default. gpt-oss's
   * harmony format expects the analysis of a tool-calling turn back; DeepSeek-R1 rejects it.
   */
  readonly keepReasoningBetweenRounds: boolean;
}

export const REASONING_FAMILIES: readonly ReasoningFamily[] = [
  { family: 'gpt-oss', pattern: /^gpt-oss\b/, control: 'reasoningEffort', keepReasoningBetweenRounds: true },
  { family: 'qwen3', pattern: /^qwen3(?:-coder)?(?::|$)/, control: 'enableThinking', keepReasoningBetweenRounds: false },
  { family: 'granite', pattern: /^granite[34]/, control: 'thinking', keepReasoningBetweenRounds: false },
  { family: 'deepseek-r1', pattern: /^deepseek-r1/, control: 'none', keepReasoningBetweenRounds: false },
];

/**
 * A model the user marks as reasoning (`stratus.models.overrides`: `reasoning: true`) whose id
 * names no family above: told its effort through `reasoning_effort`, the field OpenAI-compatible
 * servers (vLLM, Ollama, LiteLLM) pass to the model; its reasoning is not sent back (the contract).
 */
export const MARKED_REASONING_FAMILY: ReasoningFamily = { family: 'marked as reasoning', pattern: /$^/, control: 'reasoningEffort', keepReasoningBetweenRounds: false };

/**
 * The family row of a model id, or undefined (an unknown family takes no effort field).
 * `marked`: the user's `reasoning` override. `false` wins over the table (a Qwen3-Coder takes no
 * thinking switch, whatever its id); `true` gives an unknown family the marked row.
 */
export function reasoningFamily(modelId: string, marked?: boolean): ReasoningFamily | undefined {
  if (marked === false) return undefined;
  const id = modelId.toLowerCase();
  return REASONING_FAMILIES.find((row) => row.pattern.test(id)) ?? (marked === true ? MARKED_REASONING_FAMILY : undefined);
}

/** The body fields that carry `effort` to `modelId` (merged under the request's own fields). */
export function effortBody(modelId: string, effort: ReasoningEffort | undefined, marked?: boolean): Record<string, unknown> {
  if (effort === undefined) return {};
  switch (reasoningFamily(modelId, marked)?.control) {
    case 'reasoningEffort':
      return { reasoning_effort: effort === 'off' ? 'low' : effort };
    case 'enableThinking':
      return { chat_template_kwargs: { enable_thinking: effort !== 'off' } };
    case 'thinking':
      return { chat_template_kwargs: { thinking: effort !== 'off' } };
    default:
      return {};
  }
}

/**
 * Whether `modelId` writes the harmony format (gpt-oss): only for such a model are harmony's
 * channel and end markers read in its answer (any other answer, only when it starts with one).
 */
export function usesHarmonyFormat(modelId: string): boolean {
  return reasoningFamily(modelId)?.family === 'gpt-oss';
}

/** Whether `modelId` keeps its reasoning between tool rounds (the contract's default: no). */
export function keepsReasoningBetweenRounds(modelId: string, marked?: boolean): boolean {
  return reasoningFamily(modelId, marked)?.keepReasoningBetweenRounds ?? false;
}

/** The efforts a family can tell apart, for `/model`'s choices. */
export function effortsFor(modelId: string, marked?: boolean): readonly ReasoningEffort[] {
  switch (reasoningFamily(modelId, marked)?.control) {
    case 'reasoningEffort':
      return ['low', 'medium', 'high'];
    case 'enableThinking':
    case 'thinking':
      return ['off', 'high'];
    default:
      return [];
  }
}

export type EffortTable = Readonly<Record<string, ReasoningEffort>>;

/** Validates the setting: only known efforts count. */
export function parseEffortSetting(raw: unknown): EffortTable {
  if (!isRecord(raw)) return {};
  return Object.fromEntries(Object.entries(raw).filter((entry): entry is [string, ReasoningEffort] => isReasoningEffort(entry[1])));
}

/** The effort set for `modelId`: exact id over glob, longer glob over shorter. */
export function effortFor(table: EffortTable, modelId: string): ReasoningEffort | undefined {
  return mostSpecific(table, modelId);
}
