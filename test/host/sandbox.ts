// The sandbox the harness started for this run, reached over its HTTP control surface.
import * as assert from 'node:assert/strict';

export interface SandboxInfo { inference: string; console: string; apiKey: string; patId: string; patSecret: string }

export function sandbox(): SandboxInfo {
  const raw = process.env.STRATUS_SANDBOX;
  assert.ok(raw, 'STRATUS_SANDBOX is not set: run host tests through `npm run test:host`');
  return JSON.parse(raw) as SandboxInfo;
}

/** Whether the harness started a sandbox for this run (not with STRATUS_NO_SANDBOX). */
export function sandboxConfigured(): boolean {
  const raw = process.env.STRATUS_SANDBOX;
  return raw !== undefined && raw !== '' && (JSON.parse(raw) as Partial<SandboxInfo>).console !== '';
}

export interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
  status: number | null;
  body: { json?: unknown } | null;
  streamed: boolean;
  chunksSent: number;
  clientClosedEarly: boolean;
}

export async function control(path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${sandbox().console}/__sandbox${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.ok(res.ok, `sandbox control ${path}: ${res.status}`);
  return res.json();
}

export async function requests(pathPrefix: string): Promise<RecordedRequest[]> {
  const res = (await control(`/requests?pathPrefix=${encodeURIComponent(pathPrefix)}`)) as { requests?: RecordedRequest[] } | RecordedRequest[];
  return Array.isArray(res) ? res : res.requests ?? [];
}

/** Polls until `probe` returns a value, or fails with `what` after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
