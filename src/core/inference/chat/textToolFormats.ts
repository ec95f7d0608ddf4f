import { isRecord } from '../../json';

/**
 * The formats in which models print tool calls as text, and how a complete candidate is read
 * into raw calls (name + arguments object). Pure: the streaming side is textToolCalls.ts.
 */
export type TextCallFormat = 'hermes' | 'mistral' | 'llama' | 'json' | 'fenced' | 'xml' | 'harmony';

export interface RawCall {
  name: string;
  /** The arguments object, or the JSON text of it (checked later). */
  args: unknown;
}

/** Keys a printed call object starts with; any other first key means it is not a call. */
const CALL_KEYS = ['name', 'arguments', 'parameters', 'type', 'function'];

export const INCOMPLETE = -1;
export const NOT_JSON = -2;

/** Index just past the JSON object or array that starts at `from`; INCOMPLETE while it may still close; NOT_JSON if none starts there. */
export function jsonValueEnd(s: string, from: number): number {
  const first = s.charCodeAt(from);
  if (first !== 123 /* { */ && first !== 91 /* [ */) return NOT_JSON;
  let depth = 0;
  let inString = false;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return INCOMPLETE;
}

/** Whether `body` (from its first non-space character) can still be, or is, a call object or an array of them. */
export function callJsonPrefix(body: string, allowArray: boolean): 'no' | 'maybe' | 'yes' {
  let s = body.trimStart();
  if (s === '') return 'maybe';
  if (allowArray && s[0] === '[') s = s.slice(1).trimStart();
  if (s === '') return 'maybe';
  if (s[0] !== '{') return 'no';
  s = s.slice(1).trimStart();
  if (s === '') return 'maybe';
  if (s[0] !== '"') return 'no';
  const close = s.indexOf('"', 1);
  if (close < 0) {
    const partial = s.slice(1);
    return CALL_KEYS.some((k) => k.startsWith(partial)) ? 'maybe' : 'no';
  }
  return CALL_KEYS.includes(s.slice(1, close)) ? 'yes' : 'no';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One printed call object: `{name, arguments|parameters}` or the OpenAI shape `{type: "function", function: {...}}`. */
export function callFromObject(value: unknown): RawCall | undefined {
  if (!isRecord(value)) return undefined;
  const inner = isRecord(value.function) ? value.function : value;
  const name = inner.name;
  if (typeof name !== 'string' || name === '') return undefined;
  const args = inner.arguments ?? inner.parameters ?? {};
  return { name, args };
}

/** A JSON text holding one call object, or an array of them (when allowed). */
export function callsFromJson(text: string, allowArray: boolean): RawCall[] | undefined {
  const value = parseJson(text.trim());
  const list = Array.isArray(value) && allowArray ? value : [value];
  if (list.length === 0) return undefined;
  const calls: RawCall[] = [];
  for (const item of list) {
    const call = callFromObject(item);
    if (!call) return undefined;
    calls.push(call);
  }
  return calls;
}

/**
 * `<function=name>{json}</function>` or `<function=name><parameter=x>v</parameter>...</function>`
 * (Qwen3-Coder's template). Parameter values are JSON where they parse as such, text otherwise;
 * the schema check later decides.
 */
export function callFromXml(text: string): RawCall | undefined {
  const m = /^\s*<function=([A-Za-z0-9_.-]{1,64})>([\s\S]*?)<\/function>\s*$/.exec(text);
  if (!m) return undefined;
  const name = m[1] as string;
  const body = (m[2] as string).trim();
  if (body === '') return { name, args: {} };
  if (body.startsWith('{')) return { name, args: body };
  const args: Record<string, unknown> = {};
  const re = /<parameter=([A-Za-z0-9_.-]{1,64})>([\s\S]*?)<\/parameter>\s*/gy;
  let at = 0;
  for (let p = re.exec(body); p; p = re.exec(body)) {
    const raw = (p[2] as string).replace(/^\n/, '').replace(/\n$/, '');
    const parsed = parseJson(raw);
    args[p[1] as string] = parsed === undefined || typeof parsed === 'string' ? raw : parsed;
    at = re.lastIndex;
  }
  return at === body.length ? { name, args } : undefined;
}

/** Mistral's `name[ARGS]{json}` (after `[TOOL_CALLS]`). */
export function callFromMistralArgs(text: string): RawCall | undefined {
  const m = /^\s*([A-Za-z0-9_.-]{1,64})\[ARGS\]([\s\S]*)$/.exec(text);
  if (!m) return undefined;
  return { name: m[1] as string, args: (m[2] as string).trim() };
}

/** The body inside `<tool_call>...</tool_call>`: JSON, or the XML-ish function form. */
export function callsFromHermes(body: string): RawCall[] | undefined {
  const trimmed = body.trim();
  if (trimmed.startsWith('<function=')) {
    const call = callFromXml(trimmed);
    return call ? [call] : undefined;
  }
  return callsFromJson(trimmed, false);
}
