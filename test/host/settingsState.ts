import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';

/**
 * Sets a user (Global) setting only when it does not hold `value` already (undefined removes it).
 * Every write saves settings.json and fires a configuration change that each feature listening
 * reacts to: a hook that writes the same values before every test cost more than the tests.
 */
export async function setGlobal(section: string, key: string, value: unknown): Promise<void> {
  const config = vscode.workspace.getConfiguration(section);
  if (isDeepStrictEqual(config.inspect(key)?.globalValue, value)) return;
  await config.update(key, value, vscode.ConfigurationTarget.Global);
}
