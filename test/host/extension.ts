import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { StratusApi } from '../../src/extension';

export const EXTENSION_ID = 'stratus-cloud.stratus';

/** The activated extension's API (activation is idempotent). */
export async function stratus(): Promise<{ extension: vscode.Extension<StratusApi>; api: StratusApi }> {
  const extension = vscode.extensions.getExtension<StratusApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed in this extension host`);
  const api = await extension.activate();
  return { extension, api };
}

/** Metrics the harness prints after the run (activation time and the like). */
export const metrics: Record<string, number> = {};
