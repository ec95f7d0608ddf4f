import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { Redactor } from '../../../src/core/http/redact';
import { SecretKeys, SecretStore } from '../../../src/platform/secrets';

/** An in-memory SecretStorage with change events, as VS Code's behaves. */
function memoryStorage(): vscode.SecretStorage & { fire(key: string): void } {
  const values = new Map<string, string>();
  const listeners: ((e: vscode.SecretStorageChangeEvent) => void)[] = [];
  const fire = (key: string): void => listeners.forEach((l) => l({ key }));
  return {
    get: async (key: string) => values.get(key),
    keys: async () => [...values.keys()],
    store: async (key: string, value: string) => { values.set(key, value); fire(key); },
    delete: async (key: string) => { values.delete(key); fire(key); },
    onDidChange: (listener: (e: vscode.SecretStorageChangeEvent) => void) => {
      listeners.push(listener);
      return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
    },
    fire,
  } as unknown as vscode.SecretStorage & { fire(key: string): void };
}

describe('platform/secrets', () => {
  it('round-trips values and registers them for redaction', async () => {
    const redactor = new Redactor();
    const store = new SecretStore(memoryStorage(), redactor);
    await store.set(SecretKeys.inferenceApiKey, 'sk-unit-FAKE-0123456789');
    assert.equal(await store.get(SecretKeys.inferenceApiKey), 'sk-unit-FAKE-0123456789');
    assert.equal(redactor.redact('x sk-unit-FAKE-0123456789 y'), 'x [REDACTED] y');
    await store.delete(SecretKeys.inferenceApiKey);
    assert.equal(await store.get(SecretKeys.inferenceApiKey), undefined);
  });

  it('falls back to STRATUS_* environment variables, and stored values win', async () => {
    const redactor = new Redactor();
    const store = new SecretStore(memoryStorage(), redactor, { STRATUS_API_KEY: ' sk-env-FAKE-value-42 ', STRATUS_PAT_ID: '' });
    assert.equal(await store.get(SecretKeys.inferenceApiKey), 'sk-env-FAKE-value-42');
    assert.equal(await store.get(SecretKeys.patId), undefined, 'an empty variable is no value');
    assert.ok(!redactor.redact('sk-env-FAKE-value-42').includes('FAKE'), 'environment secrets are redacted too');
    await store.set(SecretKeys.inferenceApiKey, 'sk-stored-FAKE-value-7');
    assert.equal(await store.get(SecretKeys.inferenceApiKey), 'sk-stored-FAKE-value-7');
  });

  it('reports changes to its own keys only (including from another window)', async () => {
    const storage = memoryStorage();
    const store = new SecretStore(storage, new Redactor());
    const seen: string[] = [];
    const subscription = store.onDidChange((key) => seen.push(key));
    storage.fire('someone.else');
    storage.fire(SecretKeys.patSecret);
    await store.set(SecretKeys.patId, 'pat-id-FAKE-1');
    subscription.dispose();
    storage.fire(SecretKeys.patId);
    assert.deepEqual(seen, [SecretKeys.patSecret, SecretKeys.patId]);
  });
});
