import * as vscode from 'vscode';
import { startSandbox, type Sandbox } from '../sandbox/index';

/**
 * A sandbox on the production profile, with Stratus' inference base URL pointed at it for the
 * suites that run once per profile; `restore()` puts the URL back and closes the sandbox.
 */
export async function useProductionSandbox(): Promise<{ sandbox: Sandbox; restore: () => Promise<void> }> {
  const sandbox = await startSandbox({ profile: 'production' });
  const config = vscode.workspace.getConfiguration('stratus');
  const previousUrl = config.inspect<string>('inference.baseUrl')?.globalValue;
  await config.update('inference.baseUrl', sandbox.inferenceUrl, vscode.ConfigurationTarget.Global);
  return {
    sandbox,
    restore: async () => {
      await vscode.workspace.getConfiguration('stratus').update('inference.baseUrl', previousUrl, vscode.ConfigurationTarget.Global);
      await sandbox.close();
    },
  };
}
