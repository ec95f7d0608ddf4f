import type { IncomingHttpHeaders } from 'node:http';
import type { BodySummary, RecordedRequest } from '../types';
import { isRecord, tryParseJson } from './json';

/** Only the last MAX_RECORDS requests are kept. */
export const MAX_RECORDS = 500;
export const MAX_STRING = 200;
const MAX_ARRAY = 50;
const MAX_DEPTH = 8;
const REDACTED = '<redacted>';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key']);
const SECRET_KEYS = new Set(['token', 'access_token', 'refresh_token', 'id_token', 'jwt', 'api_key', 'apikey', 'authorization']);
const JWT_LIKE = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g;

/** Redacts secrets from what the sandbox records: known secrets, JWTs, secret-named fields. */
export class Redactor {
  /** Longest string kept in a recorded JSON body (the control surface raises it for a test). */
  maxString = MAX_STRING;

  constructor(private readonly secrets: readonly string[]) {}

  text(value: string): string {
    let out = value.replace(JWT_LIKE, REDACTED);
    for (const secret of this.secrets) {
      if (secret.length > 0) out = out.split(secret).join(REDACTED);
    }
    return out;
  }

  header(name: string, value: string): string {
    if (!SECRET_HEADERS.has(name)) return this.text(value);
    const space = value.indexOf(' ');
    // Keep the scheme ("Bearer") so a test can see which kind of credential was sent.
    return space > 0 && space < 20 ? `${value.slice(0, space)} ${REDACTED}` : REDACTED;
  }

  headers(headers: IncomingHttpHeaders): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      out[name] = this.header(name, Array.isArray(value) ? value.join(', ') : value);
    }
    return out;
  }

  json(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') {
      const clean = this.text(value);
      return clean.length > this.maxString ? `${clean.slice(0, this.maxString)}…[+${clean.length - this.maxString} chars]` : clean;
    }
    if (depth >= MAX_DEPTH) return '…';
    if (Array.isArray(value)) {
      const items = value.slice(0, MAX_ARRAY).map((item) => this.json(item, depth + 1));
      if (value.length > MAX_ARRAY) items.push(`…[+${value.length - MAX_ARRAY} items]`);
      return items;
    }
    if (isRecord(value)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const lower = key.toLowerCase();
        const secret = lower.includes('secret') || lower.includes('password') || SECRET_KEYS.has(lower);
        out[key] = secret ? REDACTED : this.json(item, depth + 1);
      }
      return out;
    }
    return value;
  }
}

export interface MultipartSummaryPart {
  name: string;
  filename?: string;
  contentType?: string;
  bytes: number;
  value?: string;
}

/** Bounded log of received requests (control surface excluded). */
export class RequestLog {
  private records: RecordedRequest[] = [];
  private seq = 0;

  constructor(readonly redactor: Redactor) {}

  /** A new record; `store: false` gives a record that is not kept (control surface). */
  start(init: { method: string; path: string; query: string; ip: string; headers: IncomingHttpHeaders; time: string }, store = true): RecordedRequest {
    const record: RecordedRequest = {
      seq: store ? ++this.seq : 0,
      time: init.time,
      method: init.method,
      path: init.path,
      query: this.redactor.text(init.query),
      ip: init.ip,
      headers: this.redactor.headers(init.headers),
      body: null,
      status: null,
      durationMs: null,
      streamed: false,
      chunksSent: 0,
      clientClosedEarly: false,
      droppedByServer: false,
      fault: null,
    };
    if (!store) return record;
    this.records.push(record);
    if (this.records.length > MAX_RECORDS) this.records.splice(0, this.records.length - MAX_RECORDS);
    return record;
  }

  summarize(body: Buffer, contentType: string | null, parts?: MultipartSummaryPart[]): BodySummary | null {
    if (body.length === 0) return null;
    const summary: BodySummary = { bytes: body.length, contentType };
    if (parts) {
      summary.parts = parts.map((part) => {
        const out: MultipartSummaryPart = { name: part.name, bytes: part.bytes };
        if (part.filename !== undefined) out.filename = part.filename;
        if (part.contentType !== undefined) out.contentType = part.contentType;
        if (part.value !== undefined) out.value = this.redactor.text(part.value).slice(0, MAX_STRING);
        return out;
      });
      return summary;
    }
    const text = body.toString('utf8');
    const parsed = tryParseJson(text);
    if (parsed.ok) summary.json = this.redactor.json(parsed.value);
    else summary.text = this.redactor.text(text.slice(0, MAX_STRING));
    return summary;
  }

  list(filter?: { pathPrefix?: string }): RecordedRequest[] {
    const prefix = filter?.pathPrefix;
    const chosen = prefix === undefined ? this.records : this.records.filter((r) => r.path.startsWith(prefix));
    return chosen.map((r) => structuredClone(r));
  }

  clear(): void {
    this.records = [];
  }

  get size(): number {
    return this.records.length;
  }
}
