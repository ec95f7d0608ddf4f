/** Replacement written wherever a secret would have appeared. */
export const REDACTED = '[REDACTED]';

// Short values would over-match ordinary words; real keys and tokens are far longer.
const MIN_SECRET_LENGTH = 4;
const MAX_REMEMBERED = 32;
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

/** Remembers the secrets a transport has handled so every message it emits can be cleaned. */
export class Redactor {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    if (!secret || secret.length < MIN_SECRET_LENGTH || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    // Rotated tokens (a JWT every few minutes) would otherwise accumulate forever.
    if (this.secrets.size > MAX_REMEMBERED) {
      const oldest = this.secrets.values().next().value;
      if (oldest !== undefined) this.secrets.delete(oldest);
    }
  }

  redact(text: string): string {
    return redact(text, this.secrets);
  }
}
