import type { ModelInfo } from './types';

/** Tool-calling support by model id (a setting), which wins over the guess from the family. */
export type ToolCallingOverrides = Readonly<Record<string, boolean>>;

// `/v1/models` says nothing about tools (field notes), so the guess comes from families whose
// chat templates are known to carry tool calls. Anything else is offered no tools unless the
// user says otherwise: a model that ignores tools wastes the prompt, one that garbles them fails.
const TOOL_FAMILIES: readonly RegExp[] = [
  /^gpt-oss\b/,
  /^qwen3(?:-coder)?(?::|$)/,
  /^qwen2\.5(?:-coder)?(?::|$)/,
  /^(?:mistral|ministral|magistral|devstral|codestral)(?:-[a-z]+)*[\d.]*(?::|$)/,
  /^llama3\.[1-9]|^llama4/,
  /^granite[34]/,
  /^deepseek-(?:v3|r1)/,
  /^command-r/,
];

/** Whether `model` can be offered tools: the override if one is set, else the family guess. */
export function supportsToolCalling(model: Pick<ModelInfo, 'id' | 'kind' | 'toolCalling'>, overrides: ToolCallingOverrides = {}): boolean {
  // `stratus.models.overrides`, applied where the catalog lists the model, comes first.
  if (typeof model.toolCalling === 'boolean') return model.toolCalling;
  // Own entries only: a model named `constructor` must not find Object.prototype's function.
  const forced = Object.hasOwn(overrides, model.id) ? overrides[model.id] : undefined;
  if (typeof forced === 'boolean') return forced;
  if (model.kind !== 'chat') return false;
  const id = model.id.toLowerCase();
  return TOOL_FAMILIES.some((family) => family.test(id));
}

/** Reads the `stratus.models.toolCalling` setting: only `id: boolean` entries count; anything else is ignored. */
export function parseToolCallingOverrides(value: unknown): ToolCallingOverrides {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'));
}
