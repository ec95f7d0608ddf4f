import { isRecord } from '../../json';
import { isModelKind } from './kind';
import { matchingValues } from './modelPattern';
import type { ModelInfo, ModelKind } from './types';

/**
 * `stratus.models.overrides`: what the user knows about a model that `/v1/models` does not say
 * (it gives ids and `max_model_len` only), by model id or glob. Applied once, where the catalog
 * lists models, so the model picker, compaction, the ghost-text budget and every feature's picker
 * see the same model.
 */
export interface CapabilityOverride {
  readonly kind?: ModelKind;
  /** Replaces `max_model_len`: a gateway may understate it, or a deployment may cap it lower. */
  readonly contextLength?: number;
  readonly maxOutputTokens?: number;
  readonly toolCalling?: boolean;
  /** Takes images: a chat model becomes a vision model (and `false` the reverse). */
  readonly vision?: boolean;
  readonly reasoning?: boolean;
}

export type CapabilityOverrides = Readonly<Record<string, CapabilityOverride>>;

/** The issue's kind names mapped onto Stratus' kinds: `audio` is a speech model, `completion` a text model. */
const KIND_ALIASES: Readonly<Record<string, ModelKind>> = { audio: 'speech', completion: 'chat' };

/** Largest context or output length believed (16M tokens): beyond it, a typo. */
const MAX_TOKENS = 16_777_216;

function tokens(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_TOKENS ? value : undefined;
}

function parseOne(raw: Record<string, unknown>, pattern: string, ignored: string[]): CapabilityOverride {
  const out: { -readonly [K in keyof CapabilityOverride]: CapabilityOverride[K] } = {};
  for (const [field, value] of Object.entries(raw)) {
    const where = `${pattern}.${field}`;
    switch (field) {
      case 'kind': {
        const kind = typeof value === 'string' ? KIND_ALIASES[value] ?? value : value;
        if (isModelKind(kind)) out.kind = kind;
        else ignored.push(`${where} (not a model kind)`);
        break;
      }
      case 'contextLength':
      case 'maxOutputTokens': {
        const n = tokens(value);
        if (n === undefined) ignored.push(`${where} (not a whole number of tokens)`);
        else out[field] = n;
        break;
      }
      case 'toolCalling':
      case 'vision':
      case 'reasoning':
        if (typeof value === 'boolean') out[field] = value;
        else ignored.push(`${where} (not true or false)`);
        break;
      default:
        ignored.push(`${where} (unknown field)`);
    }
  }
  return out;
}

/** Validates the setting; fields that are wrong are left out and named in `ignored`. */
export function parseCapabilityOverrides(raw: unknown): { table: CapabilityOverrides; ignored: string[] } {
  const table: Record<string, CapabilityOverride> = {};
  const ignored: string[] = [];
  if (!isRecord(raw)) return { table, ignored };
  for (const [pattern, value] of Object.entries(raw)) {
    if (isRecord(value)) table[pattern] = parseOne(value, pattern, ignored);
    else ignored.push(`${pattern} (not an object)`);
  }
  return { table, ignored };
}

/** The override of `modelId`, field by field: an exact id wins over a glob, a longer glob over a shorter one. */
export function overrideFor(table: CapabilityOverrides, modelId: string): CapabilityOverride {
  return Object.assign({}, ...matchingValues(table, modelId)) as CapabilityOverride;
}

/** The model as the user says it is. */
export function applyCapabilityOverride(model: ModelInfo, override: CapabilityOverride): ModelInfo {
  let kind = override.kind ?? model.kind;
  if (override.vision === true && kind === 'chat') kind = 'vision';
  if (override.vision === false && kind === 'vision') kind = 'chat';
  const maxModelLen = override.contextLength ?? model.maxModelLen;
  return {
    ...model,
    kind,
    maxModelLen,
    ...(override.maxOutputTokens !== undefined ? { maxOutputTokens: maxModelLen !== undefined ? Math.min(override.maxOutputTokens, maxModelLen - 1) : override.maxOutputTokens } : {}),
    ...(override.toolCalling !== undefined ? { toolCalling: override.toolCalling } : {}),
    ...(override.reasoning !== undefined ? { reasoning: override.reasoning } : {}),
  };
}
