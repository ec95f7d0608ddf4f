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
  return out.replace(BEARER, `$1 ${REDACTED}`).replace(URL_USERINFO, `$1${REDACTED}@`);
}

/**
 * The one set of secrets every log line and error message is cleaned of. Long-lived secrets (API
 * key, PAT, proxy password) are pinned and never forgotten; a rotating credential (the console's
 * JWT) lives in a named slot that holds only its current value, so rotation cannot push a pinned
 * secret out.
 */
export class Redactor {
  private readonly pinned = new Set<string>();
  private readonly slots = new Map<string, string>();

  /** Remembers a long-lived secret for the life of the process. */
  add(secret: string | undefined): void {
    if (!secret) return;
    for (const value of [secret, secret.trim()]) {
      if (value.length >= MIN_SECRET_LENGTH) this.pinned.add(value);
    }
  }

  /** Replaces the value of a rotating secret (`undefined` clears it). */
  setSlot(name: string, secret: string | undefined): void {
    if (secret && secret.length >= MIN_SECRET_LENGTH) this.slots.set(name, secret);
    else this.slots.delete(name);
  }

  private *secrets(): Iterable<string> {
    yield* this.pinned;
    yield* this.slots.values();
  }

  redact(text: string): string {
    return redact(text, this.secrets());
  }
}
