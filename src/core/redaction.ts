/**
 * Keeps secrets out of every string that leaves the process boundary (log lines, error messages,
 * webview payloads). Secrets are registered as they are read from secret storage.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  /** Remember a secret so later text containing it is masked. Short values are ignored: masking them would mangle ordinary words. */
  add(secret: string | undefined): void {
    if (secret !== undefined && secret.length >= 6) this.secrets.add(secret);
  }

  forget(secret: string | undefined): void {
    if (secret !== undefined) this.secrets.delete(secret);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(mask(secret));
    }
    // Bearer tokens that were never registered (a JWT minted by the server, say) are masked by shape.
    return out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, '$1***');
  }
}

function mask(secret: string): string {
  return `${secret.slice(0, 2)}***`;
}
