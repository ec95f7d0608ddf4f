// Pure (no `vscode` import): unit-tested in plain Node.

/*
 * The configuration other agents need to start the console's MCP server: Claude Code, Codex CLI,
 * Cline and Zed. Placeholders stand where the PAT goes: the secret is never put in a text this
 * command shows or copies; the person pastes it into that agent's configuration themselves.
 */

export type AgentId = 'claudeCode' | 'codex' | 'cline' | 'zed';

export const AGENTS: ReadonlyArray<{ readonly id: AgentId; readonly label: string; readonly file: string }> = [
  { id: 'claudeCode', label: 'Claude Code', file: '~/.claude.json (user scope), through the `claude mcp add-json` command' },
  { id: 'codex', label: 'Codex CLI', file: '~/.codex/config.toml' },
  { id: 'cline', label: 'Cline', file: 'cline_mcp_settings.json (Cline: MCP Servers > Configure > Configure MCP Servers)' },
  { id: 'zed', label: 'Zed', file: '~/.config/zed/settings.json (`context_servers`)' },
];

export const PAT_ID_PLACEHOLDER = '<your PAT id>';
export const PAT_SECRET_PLACEHOLDER = '<your PAT secret>';
export const SERVER_KEY = 'stratus-console';

export interface ServerLaunch {
  /** Absolute path of dist/mcp.js in the installed extension. */
  readonly serverPath: string;
  readonly consoleBaseUrl: string;
  readonly allowWrites: boolean;
  /** The console's fixed gateway headers (never the secret ones). */
  readonly headers: Readonly<Record<string, string>>;
}

function launchArgs(launch: ServerLaunch): string[] {
  return [launch.serverPath, ...(launch.allowWrites ? ['--allow-writes'] : [])];
}

/** The environment the server reads, the PAT as placeholders. */
export function launchEnv(launch: ServerLaunch): Record<string, string> {
  return {
    STRATUS_CONSOLE_BASE_URL: launch.consoleBaseUrl || 'https://<your console>',
    STRATUS_PAT_ID: PAT_ID_PLACEHOLDER,
    STRATUS_PAT_SECRET: PAT_SECRET_PLACEHOLDER,
    ...(Object.keys(launch.headers).length ? { STRATUS_CONSOLE_HEADERS: JSON.stringify(launch.headers) } : {}),
  };
}

/** A TOML basic string. */
function toml(value: string): string {
  return JSON.stringify(value);
}

/** The text to paste into one agent's configuration. */
export function agentConfig(agent: AgentId, launch: ServerLaunch): string {
  const args = launchArgs(launch);
  const env = launchEnv(launch);
  const server = { command: 'node', args, env };
  switch (agent) {
    case 'claudeCode':
      return `claude mcp add-json --scope user ${SERVER_KEY} '${JSON.stringify({ type: 'stdio', ...server }).replace(/'/g, "'\\''")}'`;
    case 'codex':
      return [
        `[mcp_servers.${SERVER_KEY}]`,
        `command = "node"`,
        `args = [${args.map(toml).join(', ')}]`,
        `env = { ${Object.entries(env).map(([k, v]) => `${k} = ${toml(v)}`).join(', ')} }`,
      ].join('\n');
    case 'cline':
      return JSON.stringify({ mcpServers: { [SERVER_KEY]: { ...server, disabled: false } } }, null, 2);
    case 'zed':
      return JSON.stringify({ context_servers: { [SERVER_KEY]: { source: 'custom', ...server } } }, null, 2);
  }
}

/** Fence language of each agent's text. */
export function configLanguage(agent: AgentId): string {
  return agent === 'claudeCode' ? 'sh' : agent === 'codex' ? 'toml' : 'json';
}
