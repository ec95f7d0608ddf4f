import { isRecord } from '../../json';
import { matchingValues } from '../models/modelPattern';

/**
 * `stratus.models.extraBody`: model id or glob (`*` for all) to a JSON object merged into chat and
 * completion requests, for the fields a server takes beyond the contract (`top_k`,
 * `repetition_penalty`, `chat_template_kwargs`...). The fields that make the request what it is
 * are never taken from it.
 */
export const PROTECTED_BODY_FIELDS: ReadonlySet<string> = new Set(['model', 'messages', 'prompt', 'stream', 'stream_options', 'tools', 'tool_choice']);

export type ExtraBodyTable = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

export interface ParsedExtraBody {
  readonly table: ExtraBodyTable;
  /** Keys (model patterns, or `pattern.field`) left out, with why, for one log line. */
  readonly ignored: readonly string[];
}

/** Validates the setting: each value an object; protected fields dropped and reported. */
export function parseExtraBody(raw: unknown): ParsedExtraBody {
  const table: Record<string, Record<string, unknown>> = {};
  const ignored: string[] = [];
  if (!isRecord(raw)) return { table, ignored };
  for (const [pattern, fields] of Object.entries(raw)) {
    if (!isRecord(fields)) {
      ignored.push(`${pattern} (not a JSON object)`);
      continue;
    }
    const kept: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(fields)) {
      if (PROTECTED_BODY_FIELDS.has(field)) ignored.push(`${pattern}.${field} (set by Stratus)`);
      else if (value !== undefined) kept[field] = value;
    }
    table[pattern] = kept;
  }
  return { table, ignored };
}

/**
 * Merges layers of extra fields under a request body. Precedence, highest first: the body itself
 * (what the feature asked for), then the layers from last to first. An object field present on both
 * sides (`chat_template_kwargs`) is merged one level deep with the same precedence.
 */
export function mergeUnder(body: Record<string, unknown>, layers: ReadonlyArray<Readonly<Record<string, unknown>>>): Record<string, unknown> {
  const extras: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [field, value] of Object.entries(layer)) {
      if (PROTECTED_BODY_FIELDS.has(field)) continue;
      const before = extras[field];
      extras[field] = isRecord(before) && isRecord(value) ? { ...before, ...value } : value;
    }
  }
  const out: Record<string, unknown> = { ...body };
  for (const [field, value] of Object.entries(extras)) {
    const own = out[field];
    if (own === undefined) out[field] = value;
    else if (isRecord(own) && isRecord(value)) out[field] = { ...value, ...own };
  }
  return out;
}

/** The extra fields for `model` from the table, least specific first (`*`, globs, the exact id). */
export function extraBodyLayers(table: ExtraBodyTable, model: string): Array<Readonly<Record<string, unknown>>> {
  return matchingValues(table, model);
}
