import type * as vscode from 'vscode';
import type { Redactor } from '../core/http/redact';

/** The secrets Stratus keeps, all in SecretStorage (never settings, never globalState). */
export const SecretKeys = {
  inferenceApiKey: 'stratus.inference.apiKey',
  patId: 'stratus.console.patId',
  patSecret: 'stratus.console.patSecret',
  /** A gateway's secret header values, one JSON object of name to value per API (see gatewaySecrets.ts). */
  inferenceHeaderSecrets: 'stratus.inference.headerSecrets',
  consoleHeaderSecrets: 'stratus.console.headerSecrets',
} as const;
export type SecretKey = (typeof SecretKeys)[keyof typeof SecretKeys];

/**
 * Environment variables used when SecretStorage holds nothing for a key: for dev containers,
 * CI-like set-ups and the sandbox demo. They are read, never copied into SecretStorage.
 */
export const SecretEnvironmentVariables: Partial<Record<SecretKey, string>> = {
  [SecretKeys.inferenceApiKey]: 'STRATUS_API_KEY',
  [SecretKeys.patId]: 'STRATUS_PAT_ID',
  [SecretKeys.patSecret]: 'STRATUS_PAT_SECRET',
};

/** Typed SecretStorage access that registers every value it sees with the redactor. */
export class SecretStore {
  constructor(
    private readonly storage: vscode.SecretStorage,
    private readonly redactor: Redactor,
    private readonly environment: Readonly<Record<string, string | undefined>> = {},
  ) {
    for (const name of Object.values(SecretEnvironmentVariables)) if (name) redactor.add(environment[name]?.trim());
  }

  async get(key: SecretKey): Promise<string | undefined> {
    const stored = await this.storage.get(key);
    this.redactor.add(stored);
    return stored ?? this.fromEnvironment(key);
  }

  /** True when a value for `key` comes from the environment rather than SecretStorage. */
  fromEnvironment(key: SecretKey): string | undefined {
    const variable = SecretEnvironmentVariables[key];
    const value = variable === undefined ? undefined : this.environment[variable]?.trim();
    return value ? value : undefined;
  }

  async set(key: SecretKey, value: string): Promise<void> {
    this.redactor.add(value);
    await this.storage.store(key, value);
  }

  async delete(key: SecretKey): Promise<void> {
    await this.storage.delete(key);
  }

  /** Fires for changes made here or in another window. */
  onDidChange(listener: (key: SecretKey) => void): vscode.Disposable {
    return this.storage.onDidChange((event) => {
      const known = Object.values(SecretKeys).find((key) => key === event.key);
      if (known) listener(known);
    });
  }
}
