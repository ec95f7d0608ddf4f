import { isFiniteNumber, isInteger, isRecord, isString, optional, type JsonObject } from '../core/json';
import { invalid, modelNotFound, type InferenceError } from './errors';
import { findModel, isChatCapable, type ModelSpec } from './models';
import { estimateTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from './tokens';

/**
 * Validation of a chat (and completions) request body, turning it into a typed request.
 * Every rejection is a 400 `invalid_request_error` whose `param` names the parameter
 * (`messages` for any problem inside the conversation), except an unknown model: 404.
 */

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface ImagePart {
  form: 'image_url' | 'image';
  mime: string;
  bytes: number;
  /** The decoded bytes (the OCR model reads them: ocr.ts). */
  data: Buffer;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ChatMessage {
  role: Role;
  text: string;
  images: ImagePart[];
  toolCalls: ToolCall[];
  toolCallId?: string;
}

export interface ToolDef {
  name: string;
  description?: string;
  parameters?: JsonObject;
}

export type ToolChoice = { mode: 'none' } | { mode: 'auto' } | { mode: 'forced'; name: string };

export interface ChatRequest {
  model: ModelSpec;
  messages: ChatMessage[];
  stream: boolean;
  includeUsage: boolean;
  /** As sent; undefined when absent (the default is then min(1024, room left in the context)). */
  maxTokens: number | undefined;
  /** The cap actually applied to the reply. */
  effectiveMaxTokens: number;
  tools: ToolDef[];
  toolChoice: ToolChoice;
  promptTokens: number;
  /** `reasoning_effort`, as sent (gpt-oss-style reasoning models think more or less: familyModels.ts). */
  reasoningEffort: ReasoningEffort | undefined;
  /** `chat_template_kwargs.enable_thinking`, as sent (Qwen3-style models think unless it is false). */
  enableThinking: boolean | undefined;
}

export type ReasoningEffort = 'low' | 'medium' | 'high';
const REASONING_EFFORTS: readonly string[] = ['low', 'medium', 'high'];

export const DEFAULT_MAX_TOKENS = 1024;
const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const DATA_URI = /^data:([^;,]+)((?:;[^;,]*)*),(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

class Rejection {
  constructor(readonly error: InferenceError) {}
}

function fail(message: string, param?: string): never {
  throw new Rejection(invalid(message, param));
}

function numberInRange(body: JsonObject, key: string, min: number, max: number): void {
  const value = optional(body, key);
  if (value === undefined) return;
  if (!isFiniteNumber(value) || value < min || value > max) fail(`'${key}' must be a number between ${min} and ${max}.`, key);
}

function parseImage(url: unknown, form: ImagePart['form'], where: string): ImagePart {
  if (!isString(url)) fail(`${where}: the image must be a data URI string.`, 'messages');
  const match = DATA_URI.exec(url);
  if (!match) fail(`${where}: only base64 data URIs (data:image/...;base64,...) are accepted as images.`, 'messages');
  const mime = match[1] ?? '';
  const params = match[2] ?? '';
  const data = match[3] ?? '';
  if (!mime.startsWith('image/')) fail(`${where}: unsupported image media type '${mime}'.`, 'messages');
  if (!params.split(';').includes('base64') || data.length === 0 || !BASE64.test(data)) fail(`${where}: the data URI must carry base64 data.`, 'messages');
  const decoded = Buffer.from(data, 'base64');
  return { form, mime, bytes: decoded.length, data: decoded };
}

function parseContentParts(parts: unknown[], where: string, allowImages: boolean): { text: string; images: ImagePart[] } {
  if (parts.length === 0) fail(`${where}.content must not be an empty array.`, 'messages');
  const texts: string[] = [];
  const images: ImagePart[] = [];
  parts.forEach((part, j) => {
    const at = `${where}.content[${j}]`;
    if (!isRecord(part) || !isString(part.type)) fail(`${at} must be an object with a 'type'.`, 'messages');
    if (part.type === 'text') {
      if (!isString(part.text)) fail(`${at}.text must be a string.`, 'messages');
      texts.push(part.text);
    } else if (part.type === 'image_url' && allowImages) {
      if (!isRecord(part.image_url)) fail(`${at}.image_url must be an object with a 'url'.`, 'messages');
      images.push(parseImage(part.image_url.url, 'image_url', at));
    } else if (part.type === 'image' && allowImages) {
      images.push(parseImage(part.image, 'image', at));
    } else {
      fail(`${at}: unsupported content part type '${part.type}'${allowImages ? '' : ' for this role'}.`, 'messages');
    }
  });
  return { text: texts.join('\n'), images };
}

function parseToolCalls(value: unknown, where: string): ToolCall[] {
  if (!Array.isArray(value) || value.length === 0) fail(`${where}.tool_calls must be a non-empty array.`, 'messages');
  return value.map((call, k) => {
    const at = `${where}.tool_calls[${k}]`;
    if (!isRecord(call) || !isString(call.id) || call.id.length === 0) fail(`${at}.id must be a non-empty string.`, 'messages');
    if (call.type !== undefined && call.type !== 'function') fail(`${at}.type must be 'function'.`, 'messages');
    const fn = call.function;
    if (!isRecord(fn) || !isString(fn.name) || !isString(fn.arguments)) fail(`${at}.function must have string 'name' and 'arguments'.`, 'messages');
    return { id: call.id, name: fn.name, arguments: fn.arguments };
  });
}

function parseMessage(raw: unknown, i: number, knownCallIds: Set<string>): ChatMessage {
  const where = `messages[${i}]`;
  if (!isRecord(raw)) fail(`${where} must be an object.`, 'messages');
  const role = raw.role;
  if (!isString(role) || !(ROLES as readonly string[]).includes(role)) fail(`${where}.role must be one of ${ROLES.join(', ')}.`, 'messages');
  const typedRole = role as Role;
  const content = raw.content;
  const message: ChatMessage = { role: typedRole, text: '', images: [], toolCalls: [] };
  if (typedRole === 'assistant') {
    if (raw.tool_calls !== undefined && raw.tool_calls !== null) {
      message.toolCalls = parseToolCalls(raw.tool_calls, where);
      for (const call of message.toolCalls) knownCallIds.add(call.id);
    }
    if (content === null || content === undefined) {
      if (message.toolCalls.length === 0) fail(`${where}.content may be null only when tool_calls is present.`, 'messages');
    } else if (isString(content)) {
      message.text = content;
    } else if (Array.isArray(content)) {
      message.text = parseContentParts(content, where, false).text;
    } else {
      fail(`${where}.content must be a string or null.`, 'messages');
    }
    return message;
  }
  if (isString(content)) {
    message.text = content;
  } else if (Array.isArray(content)) {
    const parsed = parseContentParts(content, where, typedRole === 'user');
    message.text = parsed.text;
    message.images = parsed.images;
  } else {
    fail(`${where}.content must be a string${typedRole === 'user' ? ' or an array of content parts' : ''}.`, 'messages');
  }
  if (typedRole === 'tool') {
    const id = raw.tool_call_id;
    if (!isString(id) || id.length === 0) fail(`${where}.tool_call_id must be a non-empty string.`, 'messages');
    if (!knownCallIds.has(id)) fail(`${where}.tool_call_id '${id}' does not answer any earlier assistant tool call.`, 'messages');
    message.toolCallId = id;
  }
  return message;
}

function parseTools(value: unknown): ToolDef[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length === 0) fail(`'tools' must be a non-empty array.`, 'tools');
  const names = new Set<string>();
  return value.map((tool, k) => {
    const at = `tools[${k}]`;
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function)) fail(`${at} must be {"type": "function", "function": {...}}.`, 'tools');
    const fn = tool.function;
    if (!isString(fn.name) || !TOOL_NAME.test(fn.name)) fail(`${at}.function.name must match ${TOOL_NAME.source}.`, 'tools');
    if (names.has(fn.name)) fail(`${at}: duplicate tool name '${fn.name}'.`, 'tools');
    names.add(fn.name);
    const def: ToolDef = { name: fn.name };
    if (fn.description !== undefined && fn.description !== null) {
      if (!isString(fn.description)) fail(`${at}.function.description must be a string.`, 'tools');
      def.description = fn.description;
    }
    if (fn.parameters !== undefined && fn.parameters !== null) {
      if (!isRecord(fn.parameters)) fail(`${at}.function.parameters must be a JSON Schema object.`, 'tools');
      def.parameters = fn.parameters;
    }
    return def;
  });
}

function parseToolChoice(value: unknown, tools: ToolDef[]): ToolChoice {
  if (value === undefined) return { mode: tools.length > 0 ? 'auto' : 'none' };
  if (value === 'none') return { mode: 'none' };
  if (value === 'auto') return { mode: tools.length > 0 ? 'auto' : 'none' };
  if (isRecord(value) && value.type === 'function' && isRecord(value.function) && isString(value.function.name)) {
    const name = value.function.name;
    if (!tools.some((t) => t.name === name)) fail(`tool_choice names '${name}', which is not in 'tools'.`, 'tool_choice');
    return { mode: 'forced', name };
  }
  fail(`'tool_choice' must be 'none', 'auto' or {"type": "function", "function": {"name": ...}}.`, 'tool_choice');
}

export function messageTokens(message: ChatMessage): number {
  let chars = message.text.length;
  for (const call of message.toolCalls) chars += call.name.length + call.arguments.length;
  return MESSAGE_OVERHEAD_TOKENS + Math.ceil(chars / 4) + IMAGE_TOKENS * message.images.length;
}

/** prompt_tokens = Σ messages (4 + ceil(chars/4) + 85 per image) + ceil(len(JSON(tools))/4). */
export function promptTokens(messages: ChatMessage[], tools: unknown): number {
  const toolTokens = tools === undefined ? 0 : estimateTokens(JSON.stringify(tools));
  return messages.reduce((sum, m) => sum + messageTokens(m), 0) + toolTokens;
}

function validate(body: unknown): ChatRequest {
  if (!isRecord(body)) fail('The request body must be a JSON object.');
  const modelId = body.model;
  if (!isString(modelId) || modelId.length === 0) fail(`'model' is required and must be a string.`, 'model');
  const model = findModel(modelId);
  if (!model) throw new Rejection(modelNotFound(modelId));
  if (!isChatCapable(model)) fail(`The model '${model.id}' does not support chat completions.`, 'model');

  if (body.messages === undefined && body.prompt !== undefined) fail(`Send the prompt as a user message in 'messages'.`, 'messages');
  const rawMessages = body.messages;
  if (!Array.isArray(rawMessages) || rawMessages.length === 0) fail(`'messages' is required and must be a non-empty array.`, 'messages');
  const knownCallIds = new Set<string>();
  const messages = rawMessages.map((m, i) => parseMessage(m, i, knownCallIds));
  if (!model.vision && messages.some((m) => m.images.length > 0)) fail(`The model '${model.id}' does not accept image input.`, 'messages');

  const stream = optional(body, 'stream');
  if (stream !== undefined && typeof stream !== 'boolean') fail(`'stream' must be a boolean.`, 'stream');
  const streamOptions = optional(body, 'stream_options');
  let includeUsage = false;
  if (streamOptions !== undefined) {
    if (!isRecord(streamOptions)) fail(`'stream_options' must be an object.`, 'stream_options');
    const flag = optional(streamOptions, 'include_usage');
    if (flag !== undefined && typeof flag !== 'boolean') fail(`'stream_options.include_usage' must be a boolean.`, 'stream_options');
    includeUsage = flag === true;
  }
  numberInRange(body, 'temperature', 0, 2);
  numberInRange(body, 'top_p', 0, 1);
  numberInRange(body, 'presence_penalty', -2, 2);
  numberInRange(body, 'frequency_penalty', -2, 2);
  const maxTokens = optional(body, 'max_tokens');
  if (maxTokens !== undefined && (!isInteger(maxTokens) || maxTokens < 1)) fail(`'max_tokens' must be an integer >= 1.`, 'max_tokens');
  const user = optional(body, 'user');
  if (user !== undefined && !isString(user)) fail(`'user' must be a string.`, 'user');

  const effort = optional(body, 'reasoning_effort');
  if (effort !== undefined && !(isString(effort) && REASONING_EFFORTS.includes(effort))) fail(`'reasoning_effort' must be 'low', 'medium' or 'high'.`, 'reasoning_effort');
  const kwargs = optional(body, 'chat_template_kwargs');
  if (kwargs !== undefined && !isRecord(kwargs)) fail(`'chat_template_kwargs' must be an object.`, 'chat_template_kwargs');
  const thinking = kwargs === undefined ? undefined : optional(kwargs, 'enable_thinking');
  if (thinking !== undefined && typeof thinking !== 'boolean') fail(`'chat_template_kwargs.enable_thinking' must be a boolean.`, 'chat_template_kwargs');

  const rawTools = optional(body, 'tools');
  const tools = parseTools(rawTools);
  if (tools.length > 0 && !model.tools) fail(`The model '${model.id}' does not support tool calls.`, 'tools');
  const toolChoice = parseToolChoice(optional(body, 'tool_choice'), tools);

  const prompt = promptTokens(messages, rawTools);
  if (prompt > model.maxModelLen) {
    fail(`This model's maximum context length is ${model.maxModelLen} tokens. However, your messages resulted in ${prompt} tokens.`, 'messages');
  }
  if (isInteger(maxTokens) && prompt + maxTokens > model.maxModelLen) {
    fail(
      `This model's maximum context length is ${model.maxModelLen} tokens. However, you requested ${prompt + maxTokens} tokens (${prompt} in the messages, ${maxTokens} in the completion).`,
      'max_tokens',
    );
  }
  const effectiveMaxTokens = isInteger(maxTokens) ? maxTokens : Math.max(1, Math.min(DEFAULT_MAX_TOKENS, model.maxModelLen - prompt));
  return {
    model,
    messages,
    stream: stream === true,
    includeUsage,
    maxTokens: isInteger(maxTokens) ? maxTokens : undefined,
    effectiveMaxTokens,
    tools,
    toolChoice,
    promptTokens: prompt,
    reasoningEffort: effort as ReasoningEffort | undefined,
    enableThinking: thinking,
  };
}

export function parseChatRequest(body: unknown): ChatRequest | InferenceError {
  try {
    return validate(body);
  } catch (error) {
    if (error instanceof Rejection) return error.error;
    throw error;
  }
}
