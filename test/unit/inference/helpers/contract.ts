/** Bodies shaped exactly as the inference contract shows them. */

export const CREATED = 1_767_225_600;

export function completion(
  message: { content: string | null; tool_calls?: unknown[] },
  finish = 'stop',
  usage: Record<string, number> = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
): Record<string, unknown> {
  return {
    id: 'chatcmpl-abc123',
    object: 'chat.completion',
    created: CREATED,
    model: 'gpt-oss:120b',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
    usage,
  };
}

export function chunk(delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> {
  return {
    id: 'chatcmpl-abc123',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: 'gpt-oss:120b',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** The production service's last data chunk: usage with an EMPTY choices array, plus extras. */
export function usageChunk(usage: Record<string, number>): Record<string, unknown> {
  return {
    id: 'chatcmpl-abc123',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: 'gpt-oss:120b',
    choices: [],
    usage,
    system_fingerprint: 'fp-unknown-extra',
  };
}

/** A streamed text answer split into `pieces`, ending with the contract's empty-content stop chunk. */
export function textStream(pieces: readonly string[]): Array<Record<string, unknown>> {
  return [
    chunk({ role: 'assistant', content: '' }),
    ...pieces.map((p) => chunk({ content: p })),
    chunk({ content: '' }, 'stop'),
  ];
}

export function toolCallDelta(index: number, part: { id?: string; name?: string; args?: string }): Record<string, unknown> {
  const call: Record<string, unknown> = { index };
  if (part.id) {
    call.id = part.id;
    call.type = 'function';
  }
  const fn: Record<string, unknown> = {};
  if (part.name) fn.name = part.name;
  if (part.args !== undefined) fn.arguments = part.args;
  call.function = fn;
  return chunk({ tool_calls: [call] });
}

export const MODEL_RECORDS = [
  { id: 'gpt-oss:120b', max_model_len: 131072 },
  { id: 'qwen3-vl:8b', max_model_len: 32768 },
  { id: 'bge-m3:567m', max_model_len: 8192 },
  { id: 'qwen3-reranker:4b', max_model_len: 8192 },
  { id: 'whisper-large-v3', max_model_len: 448 },
  { id: 'granite-embedding:278m', max_model_len: 512, aliases: ['granite-embed'] },
].map((m) => ({
  object: 'model',
  created: CREATED,
  owned_by: 'stratus',
  root: m.id,
  aliases: [],
  permission: [{ id: `modelperm-${m.id}`, object: 'model_permission', allow_sampling: true, allow_view: true, allow_fine_tuning: false }],
  ...m,
}));
