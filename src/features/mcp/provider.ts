import * as vscode from 'vscode';
import { isPlainHttpToRemoteHost } from '../../core/http/plainHttp';
import { DisposableStore } from '../../platform/disposables';
import type { GatewaySecrets } from '../../platform/gatewaySecrets';
import { readGatewaySettings } from '../../platform/gatewaySettings';
import { SecretKeys, type SecretStore } from '../../platform/secrets';
import { readSettings } from '../../platform/settings';

export const MCP_PROVIDER_ID = 'stratus.consoleMcp';
export const MCP_ENABLED_SETTING = 'stratus.mcp.enabled';
export const MCP_WRITES_SETTING = 'stratus.mcp.allowWrites';

/** The MCP settings at user level only: a workspace can neither start the server nor allow its writes. */
export function mcpSettings(): { enabled: boolean; allowWrites: boolean } {
  const config = vscode.workspace.getConfiguration();
  const user = (key: string): boolean => config.inspect<unknown>(key)?.globalValue === true;
  return { enabled: user(MCP_ENABLED_SETTING), allowWrites: user(MCP_WRITES_SETTING) };
}

export interface McpProviderOptions {
  readonly secrets: SecretStore;
  readonly gatewaySecrets: GatewaySecrets;
  /** dist/mcp.js of this extension. */
  readonly serverPath: string;
  /** The usage store's folder (the Usage view's), read by the server's get_usage. */
  readonly usageDir: string;
  readonly version: string;
  /** Told when a definition cannot start (no PAT): the message, for a notification. */
  readonly onCannotStart: (message: string) => void;
}

/**
 * The console's MCP server for VS Code's MCP hosts. The definition carries no secret: the PAT and
 * the gateway's secret headers are read from SecretStorage in resolveMcpServerDefinition, when
 * VS Code starts the server, and go into the child process environment only.
 */
export class StratusMcpProvider implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly store = new DisposableStore();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;

  constructor(private readonly options: McpProviderOptions) {
    this.store.add(this.changed);
    this.store.add(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('stratus.mcp') || e.affectsConfiguration('stratus.console') || e.affectsConfiguration('stratus.usage.tier')) this.changed.fire();
      }),
    );
    this.store.add(options.secrets.onDidChange((key) => {
      if (key === SecretKeys.patId || key === SecretKeys.patSecret || key === SecretKeys.consoleHeaderSecrets) this.changed.fire();
    }));
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const { enabled, allowWrites } = mcpSettings();
    if (!enabled) return [];
    const tier = vscode.workspace.getConfiguration('stratus').get<unknown>('usage.tier');
    const env: Record<string, string> = {
      // VS Code's own runtime runs the server: Electron as Node on the desktop, Node on a remote host.
      ELECTRON_RUN_AS_NODE: '1',
      STRATUS_CONSOLE_BASE_URL: readSettings().consoleBaseUrl,
      STRATUS_USAGE_DIR: this.options.usageDir,
      ...(typeof tier === 'string' ? { STRATUS_USAGE_TIER: tier } : {}),
    };
    const headers = readGatewaySettings().headers.console.headers;
    if (Object.keys(headers).length) env.STRATUS_CONSOLE_HEADERS = JSON.stringify(headers);
    const args = [this.options.serverPath, ...(allowWrites ? ['--allow-writes'] : [])];
    // The version changes with what the tools are, so VS Code offers to refresh them.
    return [new vscode.McpStdioServerDefinition(vscode.l10n.t('Stratus Cloud Console'), process.execPath, args, env, `${this.options.version}${allowWrites ? '+writes' : ''}`)];
  }

  async resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): Promise<vscode.McpStdioServerDefinition | undefined> {
    if (!mcpSettings().enabled) return undefined;
    const [id, secret] = [await this.options.secrets.get(SecretKeys.patId), await this.options.secrets.get(SecretKeys.patSecret)];
    if (!id || !secret) {
      this.options.onCannotStart(vscode.l10n.t('Stratus Cloud Console (MCP): sign in to the console first (Stratus: Sign In to Console); the server was not started.'));
      return undefined;
    }
    const base = String(server.env.STRATUS_CONSOLE_BASE_URL ?? '');
    let plain = false;
    try {
      plain = isPlainHttpToRemoteHost(new URL(base));
    } catch {
      // No URL: the server says so on every call.
    }
    if (plain) {
      this.options.onCannotStart(vscode.l10n.t('Stratus Cloud Console (MCP): the console address is plain http to another host, which would send the access token unencrypted; the server was not started. Use an https:// address.'));
      return undefined;
    }
    const secretHeaders = await this.options.gatewaySecrets.get('console');
    server.env = {
      ...server.env,
      STRATUS_PAT_ID: id,
      STRATUS_PAT_SECRET: secret,
      ...(Object.keys(secretHeaders).length ? { STRATUS_CONSOLE_SECRET_HEADERS: JSON.stringify(secretHeaders) } : {}),
    };
    return server;
  }

  dispose(): void {
    this.store.dispose();
  }
}
