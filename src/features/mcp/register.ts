import * as path from 'node:path';
import * as vscode from 'vscode';
import { codeFence } from '../../core/markdown';
import { DisposableStore } from '../../platform/disposables';
import { GatewaySecrets } from '../../platform/gatewaySecrets';
import { readGatewaySettings } from '../../platform/gatewaySettings';
import { readSettings } from '../../platform/settings';
import type { Deps } from '../deps';
import { agentConfig, AGENTS, configLanguage, type AgentId, type ServerLaunch } from './agentConfigs';
import { MCP_PROVIDER_ID, mcpSettings, StratusMcpProvider } from './provider';

export const SET_UP_OTHER_AGENTS = 'stratus.mcp.setUpOtherAgents';

/** Test mode only: the provider and whether VS Code accepted its registration. */
export interface McpTestApi {
  readonly provider: StratusMcpProvider;
  readonly registered: boolean;
  readonly serverPath: string;
  /** The setup command's document for one agent (what it shows), without the clipboard. */
  setupText(agent: AgentId | 'all'): string;
}

export interface McpFeatureOptions {
  readonly extensionUri: vscode.Uri;
  readonly globalStorageUri: vscode.Uri;
  readonly version: string;
}

/** The setup document: for each agent, where the text goes and the text; what mode; where the PAT then lives. */
function setupDocument(agents: ReadonlyArray<(typeof AGENTS)[number]>, launch: ServerLaunch): string {
  const lines = [
    `# ${vscode.l10n.t('Stratus cloud tools for other agents')}`,
    '',
    vscode.l10n.t('The server is one file run by Node 20 or later: {0}. It reads STRATUS_CONSOLE_BASE_URL, STRATUS_PAT_ID and STRATUS_PAT_SECRET from its environment (and STRATUS_CONSOLE_HEADERS and STRATUS_CONSOLE_SECRET_HEADERS for a gateway); `node {0} --help` lists its flags.', launch.serverPath),
    '',
    launch.allowWrites
      ? vscode.l10n.t('Writes allowed (--allow-writes): deletes and power-offs ask you to confirm where the agent supports MCP elicitation; elsewhere they are refused unless you add --allow-destructive-without-confirmation.')
      : vscode.l10n.t('Read-only: the agent can list and read resources and activities. To let it create, modify, power on or off and delete, turn on the user setting stratus.mcp.allowWrites and run this command again (it adds --allow-writes).'),
    '',
  ];
  for (const agent of agents) {
    lines.push(`## ${agent.label}`, '', vscode.l10n.t('Put this in {0}:', agent.file), '', codeFence(agentConfig(agent.id, launch), configLanguage(agent.id)), '');
  }
  lines.push(
    `## ${vscode.l10n.t('Where the PAT lives then')}`,
    '',
    vscode.l10n.t("Replace the placeholders with a personal access token from the console. It is then stored in plain text in that agent's configuration file, outside VS Code's secret storage: use your user-level file (never one inside a repository), a PAT with only the permissions the agent needs (a read-only one for read-only use), and revoke it in the console when you stop using it."),
    '',
    vscode.l10n.t('The path of the server changes when Stratus is updated: run this command again after an update.'),
    '',
  );
  return lines.join('\n');
}

function launchNow(serverPath: string): ServerLaunch {
  return { serverPath, consoleBaseUrl: readSettings().consoleBaseUrl, allowWrites: mcpSettings().allowWrites, headers: readGatewaySettings().headers.console.headers };
}

/** The console's MCP server in VS Code (off until the user turns it on), and its setup for other agents. */
export function register(deps: Deps, options: McpFeatureOptions, testMode: boolean): { disposable: vscode.Disposable; testApi: McpTestApi | undefined } {
  const store = new DisposableStore();
  const serverPath = path.join(options.extensionUri.fsPath, 'dist', 'mcp.js');
  const provider = store.add(
    new StratusMcpProvider({
      secrets: deps.secrets,
      gatewaySecrets: new GatewaySecrets(deps.secrets, deps.redactor),
      serverPath,
      usageDir: vscode.Uri.joinPath(options.globalStorageUri, 'usage').fsPath,
      version: options.version,
      onCannotStart: (message) => void vscode.window.showWarningMessage(message),
    }),
  );
  let registered = false;
  try {
    store.add(vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider));
    registered = true;
  } catch (error) {
    deps.logger.warn(`The MCP server provider could not be registered (${error instanceof Error ? error.message : String(error)}).`);
  }
  const setupText = (choice: AgentId | 'all'): string => setupDocument(choice === 'all' ? AGENTS : AGENTS.filter((a) => a.id === choice), launchNow(serverPath));

  store.add(
    vscode.commands.registerCommand(SET_UP_OTHER_AGENTS, async () => {
      const all = { label: vscode.l10n.t('All four'), id: 'all' as const };
      const picked = await vscode.window.showQuickPick([...AGENTS.map((a) => ({ label: a.label, id: a.id as AgentId | 'all' })), all], {
        placeHolder: vscode.l10n.t('Which agent should use the Stratus cloud tools?'),
      });
      if (!picked) return;
      const text = setupText(picked.id);
      await vscode.env.clipboard.writeText(picked.id === 'all' ? text : agentConfig(picked.id, launchNow(serverPath)));
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: text });
      await vscode.window.showTextDocument(document, { preview: true });
      void vscode.window.showInformationMessage(picked.id === 'all' ? vscode.l10n.t('The configuration for all four agents was copied to the clipboard.') : vscode.l10n.t('The configuration for {0} was copied to the clipboard.', picked.label));
    }),
  );
  return { disposable: store, testApi: testMode ? { provider, registered, serverPath, setupText } : undefined };
}
