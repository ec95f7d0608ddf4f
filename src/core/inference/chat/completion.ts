import { ApiError, MalformedResponseError } from '../../errors';
import { arr, isRecord, num, str } from '../../json';
import type { ResponseMeta } from '../shared/meta';
import { decodeContent } from './contentDecoder';
import type { OfferedTools } from './offeredTools';
import { recoveredCallId } from './textToolCalls';
import type { AssistantMessage, ChatResult, ToolCall, Usage } from './types';
import { parseUsage } from './usage';

export function assistantMessage(text: string, toolCalls: ToolCall[]): AssistantMessage {
  if (toolCalls.length === 0) return { role: 'assistant', content: text };
  return { role: 'assistant', content: text || null, tool_calls: toolCalls };
}

export interface ResultParts {
  id: string | undefined;
  model: string | undefined;
  created: number | undefined;
  text: string;
  thinking: string;
  thinkingOpen?: boolean;
  toolCalls: ToolCall[];
  recoveredCallIds?: readonly string[];
  finishReason: string | undefined;
  usage: Usage | undefined;
}

export function chatResult(parts: ResultParts, meta: ResponseMeta): ChatResult {
  return { ...parts, message: assistantMessage(parts.text, parts.toolCalls), meta };
}

function toolCalls(value: unknown): ToolCall[] {
  const calls: ToolCall[] = [];
  arr(value).forEach((raw, i) => {
    if (!isRecord(raw)) return;
    const fn = isRecord(raw.function) ? raw.function : {};
    const args = fn.arguments;
    calls.push({
      id: str(raw.id) || `call_${i}`,
      type: 'function',
      function: {
        name: str(fn.name) ?? '',
        // Some servers send the arguments as an object rather than a JSON text.
        arguments: typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args),
      },
    });
  });
  return calls;
}

/** Reads a non-streamed chat completion body (`choices[0].message`, `usage`). */
export function parseChatCompletion(
  body: unknown,
  meta: ResponseMeta,
  label: string,
  /** As in a stream: the offered tools a call printed as text may name (recovery on), and the log line. */
  textCalls?: { tools: OfferedTools | undefined; log?: (line: string) => void; harmony?: boolean },
): ChatResult {
  const choice = isRecord(body) ? arr(body.choices)[0] : undefined;
  if (!isRecord(body) || !isRecord(choice) || !isRecord(choice.message)) {
    throw new MalformedResponseError(`${label}: the response has no choices[0].message`);
  }
  const message = choice.message;
  const { text, thinking, thinkingOpen: open, calls: recovered } = decodeContent(str(message.content) ?? '', { tools: textCalls?.tools, harmony: textCalls?.harmony === true });
  const reasoning = str(message.reasoning_content) ?? str(message.reasoning) ?? '';
  const calls = toolCalls(message.tool_calls);
  const recoveredCallIds: string[] = [];
  for (const call of recovered) {
    const index = calls.length;
    const id = recoveredCallId(str(body.id) ?? '', index);
    recoveredCallIds.push(id);
    calls.push({ id, type: 'function', function: { name: call.name, arguments: call.arguments } });
    textCalls?.log?.(`${label}: recovered a call of '${call.name}' that ${str(body.model) ?? 'the model'} printed as text (${call.format} format)`);
  }
  const finish = str(choice.finish_reason);
  return chatResult(
    {
      id: str(body.id),
      model: str(body.model),
      created: num(body.created),
      text,
      thinking: reasoning + thinking,
      ...(open ? { thinkingOpen: true } : {}),
      toolCalls: calls,
      ...(recoveredCallIds.length > 0 ? { recoveredCallIds } : {}),
      finishReason: finish === 'stop' && recovered.length > 0 ? 'tool_calls' : finish,
      usage: parseUsage(body.usage),
    },
    meta,
  );
}

/** An `{"error": {...}}` object sent inside a 200 stream. */
export function streamedError(error: unknown, label: string, redact: (s: string) => string): ApiError {
  const e = isRecord(error) ? error : { message: str(error) };
  const code = e.code;
  const message = str(e.message);
  return new ApiError({
    status: typeof code === 'number' ? code : 500,
    message: `${label}: the server reported an error in the stream${message ? `: ${redact(message).slice(0, 500)}` : ''}`,
    type: str(e.type),
    code: typeof code === 'string' ? code : undefined,
    param: str(e.param),
  });
}
