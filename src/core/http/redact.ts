/** Replacement written wherever a secret would have appeared. */
export const REDACTED = '[REDACTED]';

// Short values would over-match ordinary words; real keys and tokens are far longer.
const MIN_SECRET_LENGTH = 4;
// Eight characters at least, so prose such as "Bearer token missing" stays readable.
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi;

/**
 * Removes every known secret from `text`, plus anything that looks like an Authorization value
 * or credentials embedded in a URL, which covers secrets we were never told about.
 */
export function redact(text: string, secrets: Iterable<string | undefined> = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) {
      out = out.split(secret).join(REDACTED);
    }
  }
  out = out.replace(BEARER, `$1 ${REDACTED}`);
  // Credentials in a URL need `://`: one plain search spares the pattern's try at every word of a long text.
  return out.includes('://') ? out.replace(URL_USERINFO, `$1${REDACTED}@`) : out;
}

// Base64 needles shorter than this (6 bytes of the secret) could match ordinary text.
const MIN_BASE64_BYTES = 6;

/**
 * The forms a secret takes when a server echoes it: as is, JSON-escaped, percent-encoded (either
 * hex case, `+` for spaces), and base64 / base64url. A secret inside a longer encoded value (the
 * `id:secret` of a Basic header, a JSON body sent back in base64) shows as one of three fixed runs
 * of characters, one per alignment of its first byte in the 3-byte groups: those runs are
 * matched too (at most two characters at each edge stay, which carry no whole byte of it).
 * Longest first, so a whole encoding is removed before any part of it.
 */
export function encodedForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  const json = JSON.stringify(secret).slice(1, -1);
  forms.add(json);
  forms.add(json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  try {
    const percent = encodeURIComponent(secret);
    forms.add(percent);
    forms.add(percent.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()));
    forms.add(percent.replace(/%20/g, '+'));
  } catch {
    // A lone surrogate has no percent-encoding; it cannot be echoed that way either.
  }
  const bytes = Buffer.from(secret, 'utf8');
  forms.add(bytes.toString('base64'));
  forms.add(bytes.toString('base64url'));
  for (let start = 0; start < 3; start++) {
    const usable = Math.floor((bytes.length - start) / 3) * 3;
    if (usable < MIN_BASE64_BYTES) continue;
    const run = bytes.subarray(start, start + usable);
    forms.add(run.toString('base64'));
    forms.add(run.toString('base64url'));
  }
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/**
 * The one set of secrets every log line and error message is cleaned of, each with its encoded
 * forms (`encodedForms`). Long-lived secrets (API key, PAT id and secret, proxy password) are
 * pinned and never forgotten; a rotating credential (the console's JWT) lives in a named slot that
 * holds only its current value, so rotation cannot push a pinned secret out.
 */
export class Redactor {
  private readonly pinned = new Map<string, readonly string[]>();
  private readonly slots = new Map<string, readonly string[]>();
  private needles: string[] | undefined;

  /** Remembers a long-lived secret (and its encoded forms) for the life of the process. */
  add(secret: string | undefined): void {
    if (!secret) return;
    for (const value of [secret, secret.trim()]) {
      if (value.length >= MIN_SECRET_LENGTH && !this.pinned.has(value)) {
        this.pinned.set(value, encodedForms(value));
        this.needles = undefined;
      }
    }
  }

  /** Replaces the value of a rotating secret (`undefined` clears it). */
  setSlot(name: string, secret: string | undefined): void {
    if (secret && secret.length >= MIN_SECRET_LENGTH) {
      // Every request sets the current token again: the same value keeps the needles as they are
      // (they were rebuilt, flattened and sorted anew for the next text redacted after each request).
      if (this.slots.get(name)?.[0] === secret) return;
      this.slots.set(name, [secret, ...encodedForms(secret).filter((f) => f !== secret)]);
    } else if (!this.slots.delete(name)) {
      return;
    }
    this.needles = undefined;
  }

  private secrets(): string[] {
    // Longest first across all secrets, so no shorter needle splits a longer one's match.
    this.needles ??= [...new Set([...this.pinned.values(), ...this.slots.values()].flat())].sort((a, b) => b.length - a.length);
    return this.needles;
  }

  redact(text: string): string {
    return redact(text, this.secrets());
  }
}
