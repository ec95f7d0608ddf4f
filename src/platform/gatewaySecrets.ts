import { isRecord } from '../core/json';
import type { Redactor } from '../core/http/redact';
import { SecretKeys, type SecretStore } from './secrets';

/** Which API a gateway header goes to. */
export type GatewayScope = 'inference' | 'console';

const KEY = { inference: SecretKeys.inferenceHeaderSecrets, console: SecretKeys.consoleHeaderSecrets } as const;

/**
 * A gateway's secret header values (`X-Gateway-Key`...), kept in SecretStorage as one JSON object
 * per API, never in settings. Every value read or written is registered with the redactor, so it
 * is cleaned from logs and errors like the API key.
 */
export class GatewaySecrets {
  constructor(
    private readonly secrets: SecretStore,
    private readonly redactor: Redactor,
  ) {}

  async get(scope: GatewayScope): Promise<Record<string, string>> {
    const stored = await this.secrets.get(KEY[scope]);
    if (stored === undefined) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(stored);
    } catch {
      return {};
    }
    const out: Record<string, string> = {};
    if (!isRecord(parsed)) return out;
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value !== 'string') continue;
      this.redactor.add(value);
      out[name] = value;
    }
    return out;
  }

  /** Stores (or with `undefined` removes) one secret header; other names are kept. */
  async set(scope: GatewayScope, name: string, value: string | undefined): Promise<void> {
    const current = await this.get(scope);
    for (const existing of Object.keys(current)) if (existing.toLowerCase() === name.toLowerCase()) delete current[existing];
    if (value !== undefined) {
      this.redactor.add(value);
      current[name] = value;
    }
    if (Object.keys(current).length === 0) await this.secrets.delete(KEY[scope]);
    else await this.secrets.set(KEY[scope], JSON.stringify(current));
  }

  /** Names of the stored secret headers (never their values), for the command's picker. */
  async names(scope: GatewayScope): Promise<string[]> {
    return Object.keys(await this.get(scope));
  }
}
