import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index';

/** Test helpers for the sandbox server: real HTTP with the built-in fetch. */

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

export interface CallInit {
  method?: string;
  headers?: Record<string, string>;
  /** A plain value is sent as JSON; a string or FormData as is. */
  body?: unknown;
  signal?: AbortSignal;
}

export async function call(url: string, init: CallInit = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  let body: string | FormData | undefined;
  if (init.body instanceof FormData || typeof init.body === 'string') body = init.body;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const requestInit: RequestInit = { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers };
  if (body !== undefined) requestInit.body = body;
  if (init.signal) requestInit.signal = init.signal;
  const response = await fetch(url, requestInit);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Starts a sandbox before the suite and closes it after; returns an accessor. */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  before(async () => {
    sandbox = await startSandbox({ activityStepMs: 1000, consoleRateLimits: false, ...options });
  });
  after(async () => {
    await sandbox?.close();
  });
  return () => {
    if (!sandbox) throw new Error('sandbox not started');
    return sandbox;
  };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** POST to an inference path (relative to the /v1 base, or absolute path starting with /v2). */
export function infer(sb: Sandbox, path: string, body: unknown, key: string = sb.credentials.apiKey): Promise<Reply> {
  const url = path.startsWith('/v2/') ? `${sb.consoleUrl}${path}` : `${sb.inferenceUrl}${path}`;
  return call(url, { body, headers: bearer(key) });
}

export function chat(sb: Sandbox, body: Record<string, unknown>): Promise<Reply> {
  return infer(sb, '/chat/completions', { model: 'gpt-oss:120b', ...body });
}

export function user(content: unknown): Record<string, unknown> {
  return { role: 'user', content };
}

export interface ErrorEnvelope {
  error: { message: string; type: string; param?: string; code?: string };
}

export interface ConsoleErrorEnvelope {
  error: { status: string; message: string };
}

/** Exchanges a PAT for a JWT (either profile's body shape). */
export async function consoleToken(sb: Sandbox, pat: { id: string; secret: string } = { id: sb.credentials.patId, secret: sb.credentials.patSecret }): Promise<string> {
  const r = await call(`${sb.consoleUrl}/api/iam/v2/auth/personal_access_token`, { body: pat });
  if (r.status !== 200) throw new Error(`PAT exchange failed: ${r.status} ${r.text}`);
  if (r.json !== undefined && typeof r.json === 'object' && r.json !== null && 'token' in r.json) return String((r.json as { token: unknown }).token);
  return r.text;
}

export function consoleCall(sb: Sandbox, token: string, path: string, init: Omit<CallInit, 'headers'> = {}): Promise<Reply> {
  return call(`${sb.consoleUrl}${path}`, { ...init, headers: bearer(token) });
}

/** Splits an SSE body into its `data:` payloads; asserts the framing (every event ends with a blank line). */
export function sseData(text: string): string[] {
  if (!text.endsWith('\n\n')) throw new Error('SSE body does not end with a blank line');
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((event) => {
      if (!event.startsWith('data: ')) throw new Error(`not a data event: ${event}`);
      return event.slice('data: '.length);
    });
}

export interface Chunk {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: { role?: string; content?: string | null; tool_calls?: Array<{ index: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }> };
    finish_reason: string | null;
  }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number; reasoning_tokens?: number };
  [extra: string]: unknown;
}

export function chunks(text: string): Chunk[] {
  const data = sseData(text);
  if (data[data.length - 1] !== '[DONE]') throw new Error('stream does not end with [DONE]');
  return data.slice(0, -1).map((d) => JSON.parse(d) as Chunk);
}

export function streamedContent(list: Chunk[]): string {
  return list.map((c) => c.choices[0]?.delta.content ?? '').join('');
}

/** A valid 16-bit mono PCM WAV of `seconds` seconds. */
export function makeWav(seconds: number, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const dataSize = samples * 2;
  const buf = Buffer.alloc(44 + dataSize);
  buf.write('RIFF', 0, 'latin1');
  buf.writeUInt32LE(36 + dataSize, 4);
  buf.write('WAVE', 8, 'latin1');
  buf.write('fmt ', 12, 'latin1');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'latin1');
  buf.writeUInt32LE(dataSize, 40);
  for (let i = 0; i < samples; i++) buf.writeInt16LE(Math.round(Math.sin((i / sampleRate) * 2 * Math.PI * 440) * 8000), 44 + i * 2);
  return buf;
}

/** A 1x1 PNG as a base64 data URI. */
export const PNG_DATA_URI = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
export const PNG_BYTES = Buffer.from(PNG_DATA_URI.split(',')[1] ?? '', 'base64').length;

/**
 * Polls `check` until it returns true: a wait for something another party does on its own
 * schedule (the server noticing a closed socket), never a measure of time. `timeoutMs` only turns
 * a condition that never comes into a clear failure instead of mocha's timeout.
 */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function audioForm(file: Buffer, filename: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), filename);
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}

export interface Completion {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: { role: string; content: string | null; tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }> };
    finish_reason: string;
    [extra: string]: unknown;
  }>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; reasoning_tokens?: number; [extra: string]: unknown };
  [extra: string]: unknown;
}

/** The activity id from a 201's Location header (a URL path or a raw id). */
export function activityIdOf(r: Reply): string {
  const location = r.headers.get('location');
  if (r.status !== 201 || !location) throw new Error(`expected 201 with Location, got ${r.status} ${r.text}`);
  return location.split('/').pop() ?? '';
}

export interface ActivityView {
  id: string;
  tenantId: string;
  description: string;
  type: string;
  tags: string[];
  initiator: string;
  creationDate: string;
  concernedItems: Array<{ type: string; id: string }>;
  state: Record<string, unknown>;
  operationType: string;
  [extra: string]: unknown;
}

/** Moves the sandbox clock past the activity's end (5 steps of `stepMs`) and reads it. */
export async function settle(sb: Sandbox, token: string, write: Reply, stepMs = 1000): Promise<ActivityView> {
  const id = activityIdOf(write);
  sb.control.advanceTime(5 * stepMs);
  const r = await consoleCall(sb, token, `/api/activity/v1/activities/${id}`);
  if (r.status !== 200) throw new Error(`activity read failed: ${r.status} ${r.text}`);
  return r.json as ActivityView;
}
