import { ValidationError } from '../../errors';
import { isRecord } from '../../json';
import {
  optionalInteger,
  optionalNumberInRange,
  optionalString,
  requireNonEmptyString,
} from '../shared/validate';
import type { ChatMessage, ChatRequest, ToolChoice, ToolDefinition } from './types';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const DATA_URI = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[\w.-]+)*;base64,/i;
const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function fail(message: string, param: string): never {
  throw new ValidationError(message, param);
}

function checkPart(part: unknown, param: string): void {
  if (!isRecord(part)) fail(`${param} must be an object`, param);
  switch (part.type) {
    case 'text':
      if (typeof part.text !== 'string') fail(`${param}.text must be a string`, `${param}.text`);
      return;
    case 'image_url': {
      const url = isRecord(part.image_url) ? part.image_url.url : undefined;
      if (typeof url !== 'string' || !DATA_URI.test(url)) {
        fail(`${param}.image_url.url must be a base64 data URI`, `${param}.image_url.url`);
      }
      return;
    }
    case 'image':
      if (typeof part.image !== 'string' || !DATA_URI.test(part.image)) {
        fail(`${param}.image must be a base64 data URI`, `${param}.image`);
      }
      return;
    default:
      fail(`${param}.type must be text, image_url or image`, `${param}.type`);
  }
}

function checkToolCalls(calls: unknown, param: string): void {
  if (!Array.isArray(calls)) fail(`${param} must be an array`, param);
  calls.forEach((call: unknown, i) => {
    const p = `${param}[${i}]`;
    if (!isRecord(call) || typeof call.id !== 'string' || call.id === '') fail(`${p}.id must be a string`, `${p}.id`);
    const fn = call.function;
    if (!isRecord(fn) || typeof fn.name !== 'string' || fn.name === '') {
      fail(`${p}.function.name must be a string`, `${p}.function.name`);
    }
    if (typeof fn.arguments !== 'string') fail(`${p}.function.arguments must be a JSON string`, `${p}.function.arguments`);
  });
}

function checkMessage(message: unknown, i: number): void {
  const p = `messages[${i}]`;
  if (!isRecord(message)) fail(`${p} must be an object`, p);
  const role = message.role;
  if (typeof role !== 'string' || !ROLES.has(role)) {
    fail(`${p}.role must be system, user, assistant or tool`, `${p}.role`);
  }
  const content = message.content;
  if (role === 'user' && Array.isArray(content)) {
    if (content.length === 0) fail(`${p}.content must not be empty`, `${p}.content`);
    content.forEach((part: unknown, j) => checkPart(part, `${p}.content[${j}]`));
  } else if (role === 'assistant' && message.tool_calls !== undefined) {
    checkToolCalls(message.tool_calls, `${p}.tool_calls`);
    if (content !== null && typeof content !== 'string') fail(`${p}.content must be a string or null`, `${p}.content`);
  } else if (typeof content !== 'string') {
    fail(`${p}.content must be a string`, `${p}.content`);
  }
  if (role === 'tool') requireNonEmptyString(message.tool_call_id, `${p}.tool_call_id`);
}

function checkTools(tools: unknown): void {
  if (!Array.isArray(tools)) fail('tools must be an array', 'tools');
  const names = new Set<string>();
  tools.forEach((tool: unknown, i) => {
    const p = `tools[${i}]`;
    if (!isRecord(tool) || tool.type !== 'function') fail(`${p}.type must be function`, `${p}.type`);
    const fn = tool.function;
    const name = isRecord(fn) ? fn.name : undefined;
    if (typeof name !== 'string' || !FUNCTION_NAME.test(name)) {
      fail(`${p}.function.name must be 1-64 letters, digits, _ or -`, `${p}.function.name`);
    }
    if (names.has(name)) fail(`${p}.function.name duplicates another tool`, `${p}.function.name`);
    names.add(name);
    if (isRecord(fn) && fn.parameters !== undefined && !isRecord(fn.parameters)) {
      fail(`${p}.function.parameters must be a JSON Schema object`, `${p}.function.parameters`);
    }
  });
}

function checkToolChoice(choice: unknown, tools: readonly ToolDefinition[] | undefined): void {
  if (choice === 'none' || choice === 'auto') return;
  const name = isRecord(choice) && choice.type === 'function' && isRecord(choice.function)
    ? choice.function.name
    : undefined;
  if (typeof name !== 'string') {
    fail('tool_choice must be none, auto or {type:"function",function:{name}}', 'tool_choice');
  }
  if (!tools?.some((t) => t.function.name === name)) {
    fail(`tool_choice names a function that is not in tools`, 'tool_choice');
  }
}

/**
 * Validates a chat request against the contract's ranges and builds the JSON body. Only set
 * parameters are sent, so the server's documented defaults apply to the rest.
 */
export function buildChatBody(req: ChatRequest, stream: boolean): Record<string, unknown> {
  requireNonEmptyString(req.model, 'model');
  if (!Array.isArray(req.messages) || req.messages.length === 0) {
    fail('messages must be a non-empty array', 'messages');
  }
  req.messages.forEach((m: ChatMessage, i) => checkMessage(m, i));
  optionalNumberInRange(req.temperature, 0, 2, 'temperature');
  optionalInteger(req.max_tokens, 1, 'max_tokens');
  optionalNumberInRange(req.top_p, 0, 1, 'top_p');
  optionalNumberInRange(req.presence_penalty, -2, 2, 'presence_penalty');
  optionalNumberInRange(req.frequency_penalty, -2, 2, 'frequency_penalty');
  optionalString(req.user, 'user');
  if (req.tools !== undefined) checkTools(req.tools);
  if (req.tool_choice !== undefined) checkToolChoice(req.tool_choice as ToolChoice, req.tools);

  const body: Record<string, unknown> = { model: req.model, messages: req.messages };
  if (stream) body.stream = true;
  const optional = [
    'temperature',
    'max_tokens',
    'top_p',
    'presence_penalty',
    'frequency_penalty',
    'user',
    'tools',
    'tool_choice',
  ] as const;
  for (const key of optional) {
    if (req[key] !== undefined) body[key] = req[key];
  }
  // Some servers reject an empty tools array; no tools means none offered.
  if (req.tools?.length === 0) delete body.tools;
  return body;
}

