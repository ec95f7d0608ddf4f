// The secrets sweep's oracle, written independently of src/core/http/redact.ts: every form a
// secret can take in text (as is, JSON-escaped, URL-encoded, base64 and base64url, also inside a
// longer base64 value such as a Basic `id:secret`), and a scan of every output for any of them.
import { readdirSync, readFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { presentError } from '../../../src/core/presentError';

/** Runs of base64 characters fully determined by `bytes` at each of the 3 alignments. */
function alignedRuns(bytes: Buffer): string[] {
  const runs: string[] = [];
  for (let k = 0; k < 3; k++) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const first = Math.ceil((8 * k) / 6);
    const last = Math.floor((8 * (k + bytes.length)) / 6);
    const run = encoded.slice(first, last);
    if (run.length >= 8) runs.push(run, run.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return runs;
}

export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    bytes.toString('base64'),
    bytes.toString('base64url'),
    ...alignedRuns(bytes),
  ]);
  return [...forms].filter((f) => f.length >= 8);
}

/** A JWT's signature, and the token itself: the parts that prove possession. */
export function jwtForms(jwt: string): string[] {
  const signature = jwt.split('.')[2] ?? '';
  return [jwt, ...(signature.length >= 16 ? [signature] : [])];
}

export class SecretSet {
  private readonly needles = new Map<string, string>();

  add(name: string, secret: string | undefined, forms: (s: string) => string[] = secretForms): void {
    if (!secret) return;
    for (const form of forms(secret)) this.needles.set(form, name);
  }

  /** The names of the secrets found in `text` (empty: clean). */
  find(text: string): string[] {
    const found = new Set<string>();
    for (const [needle, name] of this.needles) if (text.includes(needle)) found.add(name);
    return [...found];
  }

  get size(): number {
    return this.needles.size;
  }
}

/** Every text an error carries: message, name, stack, causes, and the sentence shown for it. */
export function errorTexts(error: unknown): string[] {
  const out: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e !== undefined && e !== null && depth < 6; depth++) {
    if (e instanceof Error) out.push(e.name, e.message, e.stack ?? '', JSON.stringify(e, Object.getOwnPropertyNames(e)));
    else out.push(String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  if (error !== undefined) out.push(presentError(error).message);
  return out;
}

/** The text of every regular file under `dir` (symbolic links are not followed). */
export function filesUnder(dir: string): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) out.push(...filesUnder(path));
    else if (stat.isFile()) out.push({ path, text: readFileSync(path, 'latin1') });
  }
  return out;
}

export const LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;

/** Lines scanned per feature and log level, and the leaks found. */
export class SweepRecorder {
  private readonly lines = new Map<string, number>();
  readonly leaks: string[] = [];
  outputs = 0;

  count(feature: string, level: string): void {
    const key = `${feature}\u0000${level}`;
    this.lines.set(key, (this.lines.get(key) ?? 0) + 1);
  }

  render(features: readonly string[]): string {
    const rows = [`${'feature'.padEnd(18)} | ${LEVELS.map((l) => l.padStart(6)).join(' | ')}`];
    for (const f of features) rows.push(`${f.padEnd(18)} | ${LEVELS.map((l) => String(this.lines.get(`${f}\u0000${l}`) ?? 0).padStart(6)).join(' | ')}`);
    rows.push(`log lines per level above; other outputs scanned (errors, shown text, files, usage view payloads): ${this.outputs}; leaks: ${this.leaks.length}`);
    return rows.join('\n');
  }
}
