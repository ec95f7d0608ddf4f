import type { SandboxProfile } from '../types';
import { shortHash } from '../core/ids';
import { FAMILY_MODELS } from './familyModels';

/**
 * The model catalogue. Capabilities are internal to the sandbox: like production, `/v1/models`
 * exposes no capability field (clients infer the kind from the id).
 */
export type ModelKind = 'chat' | 'ocr' | 'embedding' | 'rerank' | 'speech';

export interface ModelSpec {
  id: string;
  kind: ModelKind;
  maxModelLen: number;
  root: string;
  aliases: string[];
  vision: boolean;
  tools: boolean;
  reasoning: boolean;
  /** Embedding dimension (embedding models). */
  dimensions?: number;
}

const CREATED = 1735689600; // 2025-01-01T00:00:00Z, fixed so responses are deterministic

export const MODELS: readonly ModelSpec[] = [
  { id: 'gpt-oss:120b', kind: 'chat', maxModelLen: 131072, root: 'openai/gpt-oss-120b', aliases: ['gpt-oss-120b'], vision: false, tools: true, reasoning: false },
  { id: 'qwen3:30b', kind: 'chat', maxModelLen: 40960, root: 'Qwen/Qwen3-30B-A3B', aliases: ['qwen3-30b'], vision: false, tools: true, reasoning: true },
  // 1M-token context: long streams (benchmarks, "long N" with a large max_tokens).
  { id: 'qwen3-coder:30b', kind: 'chat', maxModelLen: 1048576, root: 'Qwen/Qwen3-Coder-30B-A3B-Instruct', aliases: ['qwen3-coder-30b'], vision: false, tools: true, reasoning: false },
  { id: 'qwen3-vl:8b', kind: 'chat', maxModelLen: 262144, root: 'Qwen/Qwen3-VL-8B-Instruct', aliases: ['qwen3-vl-8b'], vision: true, tools: false, reasoning: false },
  {
    id: 'mistral-small3.2:24b',
    kind: 'chat',
    maxModelLen: 131072,
    root: 'mistralai/Mistral-Small-3.2-24B-Instruct-2506',
    aliases: ['mistral-small-3.2'],
    vision: true,
    tools: true,
    reasoning: false,
  },
  // 16k context with tools: long agent turns that must be compacted (issue 19).
  { id: 'qwen2.5-coder:7b', kind: 'chat', maxModelLen: 16384, root: 'Qwen/Qwen2.5-Coder-7B-Instruct', aliases: ['qwen2.5-coder-7b'], vision: false, tools: true, reasoning: false },
  { id: 'smollm2:135m', kind: 'chat', maxModelLen: 512, root: 'HuggingFaceTB/SmolLM2-135M-Instruct', aliases: [], vision: false, tools: false, reasoning: false },
  { id: 'deepseek-ocr:3b', kind: 'ocr', maxModelLen: 8192, root: 'deepseek-ai/DeepSeek-OCR', aliases: ['deepseek-ocr'], vision: true, tools: false, reasoning: false },
  { id: 'bge-m3:567m', kind: 'embedding', maxModelLen: 8192, root: 'BAAI/bge-m3', aliases: ['bge-m3'], vision: false, tools: false, reasoning: false, dimensions: 1024 },
  {
    id: 'granite-embedding:278m',
    kind: 'embedding',
    maxModelLen: 512,
    root: 'ibm-granite/granite-embedding-278m-multilingual',
    aliases: [],
    vision: false,
    tools: false,
    reasoning: false,
    dimensions: 768,
  },
  { id: 'qwen3-reranker:4b', kind: 'rerank', maxModelLen: 40960, root: 'Qwen/Qwen3-Reranker-4B', aliases: ['qwen3-reranker'], vision: false, tools: false, reasoning: false },
  { id: 'whisper-large-v3', kind: 'speech', maxModelLen: 448, root: 'openai/whisper-large-v3', aliases: ['whisper'], vision: false, tools: false, reasoning: false },
  // Reasoning and tool-call families that do not follow the contract (familyModels.ts).
  ...FAMILY_MODELS,
];

export const DEFAULT_SPEECH_MODEL = 'whisper-large-v3';

export function findModel(idOrAlias: string): ModelSpec | undefined {
  return MODELS.find((m) => m.id === idOrAlias || m.aliases.includes(idOrAlias));
}

export function isChatCapable(model: ModelSpec): boolean {
  return model.kind === 'chat' || model.kind === 'ocr';
}

export function modelRecord(model: ModelSpec, profile: SandboxProfile): Record<string, unknown> {
  const permission: Record<string, unknown> = {
    id: `modelperm-${shortHash(model.id, 20)}`,
    object: 'model_permission',
    allow_sampling: true,
    allow_view: true,
    allow_fine_tuning: false,
  };
  const record: Record<string, unknown> = {
    id: model.id,
    object: 'model',
    created: CREATED,
    owned_by: 'sandbox',
    root: model.root,
    aliases: [...model.aliases],
    max_model_len: model.maxModelLen,
    permission: [permission],
  };
  if (profile === 'production') {
    // Unknown extra fields, as a vLLM-style production server sends them.
    Object.assign(permission, { created: CREATED, allow_create_engine: false, allow_logprobs: true, allow_search_indices: false, organization: '*', group: null, is_blocking: false });
    record.parent = null;
  }
  return record;
}
