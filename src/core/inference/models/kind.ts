import type { ModelKind, ModelKindOverrides } from './types';

/**
 * Model records carry no capability field, so the kind is read from the id (`family:size`).
 * Order matters: `bge-reranker` is a reranker, not an embedding model.
 */
const RULES: ReadonlyArray<readonly [RegExp, ModelKind]> = [
  [/rerank/, 'rerank'],
  [/whisper|speech|stt/, 'speech'],
  [/ocr/, 'ocr'],
  [/embed|bge|(?:^|[^a-z0-9])e5(?:[^a-z0-9]|$)/, 'embedding'],
  [/-vl|(?:^|[^a-z])vl(?:[^a-z]|$)|vision|llava|pixtral|mistral-small3/, 'vision'],
];

const KINDS = new Set<string>(['chat', 'vision', 'embedding', 'rerank', 'speech', 'ocr']);

export function isModelKind(value: unknown): value is ModelKind {
  return typeof value === 'string' && KINDS.has(value);
}

export function inferModelKind(id: string, overrides?: ModelKindOverrides): ModelKind {
  const override = overrides?.[id];
  if (override && isModelKind(override)) return override;
  const lower = id.toLowerCase();
  for (const [pattern, kind] of RULES) if (pattern.test(lower)) return kind;
  return 'chat';
}
