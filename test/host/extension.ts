import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { StratusApi } from '../../src/extension';
import { requests, sandboxConfigured } from './sandbox';

export const EXTENSION_ID = 'stratus-cloud.stratus';
export const VENDOR = 'stratus';

/** The activated extension's API (activation is idempotent). */
export async function stratus(): Promise<{ extension: vscode.Extension<StratusApi>; api: StratusApi }> {
  const extension = vscode.extensions.getExtension<StratusApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed in this extension host`);
  const api = await extension.activate();
  return { extension, api };
}

/** Metrics the harness prints after the run (activation time and the like). */
export const metrics: Record<string, number> = {};

/** The state right after activation, before any test ran (see recordStartup). */
export interface Startup {
  /** Which secrets were stored when the window opened. */
  secrets: { apiKey: boolean; pat: boolean };
  /** Requests the sandbox had received by then (`METHOD /path`), or null without a sandbox. */
  requests: string[] | null;
  /** Models of our vendor VS Code resolved at startup. */
  models: { id: string; vendor: string }[];
  consoleState: string;
}

let startup: Startup | undefined;

/**
 * Activates the extension, waits for the model resolution that activation starts (the provider
 * answering VS Code), then snapshots what happened, so activation.test.ts can assert on the
 * startup whatever order the suites run in. Called by index.ts before mocha runs.
 */
export async function recordStartup(): Promise<void> {
  const { api } = await stratus();
  // Recorded for the harness to print; never asserted (timing belongs in bench/).
  metrics.activationMs = api.activationMs;
  const models = await vscode.lm.selectChatModels({ vendor: VENDOR });
  const seen = sandboxConfigured() ? (await requests('/')).map((r) => `${r.method} ${r.path}`) : null;
  startup = {
    secrets: await api.secretsStatus(),
    requests: seen,
    models: models.map((m) => ({ id: m.id, vendor: m.vendor })),
    consoleState: api.views.consoleState(),
  };
}

export function startupSnapshot(): Startup {
  assert.ok(startup, 'recordStartup() did not run: host tests must be started by test/host/index.ts');
  return startup;
}
