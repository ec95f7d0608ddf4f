import assert from 'node:assert/strict';
import { agentConfig, AGENTS, launchEnv, PAT_ID_PLACEHOLDER, PAT_SECRET_PLACEHOLDER, type ServerLaunch } from '../../../src/features/mcp/agentConfigs';
import { parseOptions } from '../../../src/mcp/options';

const launch = (allowWrites: boolean): ServerLaunch => ({ serverPath: "/home/o'neil/.vscode/extensions/stratus-cloud.stratus-0.2.0/dist/mcp.js", consoleBaseUrl: 'https://console.example.eu', allowWrites, headers: { 'X-Tenant': 'acme' } });

/** command, args and env of an agent's text, read back the way that agent reads it. */
function readBack(agent: string, text: string): { command: string; args: string[]; env: Record<string, string> } {
  switch (agent) {
    case 'claudeCode': {
      const quoted = /^claude mcp add-json --scope user stratus-console '(.*)'$/s.exec(text)?.[1];
      assert.ok(quoted, text);
      return JSON.parse(quoted.replace(/'\\''/g, "'")) as { command: string; args: string[]; env: Record<string, string> };
    }
    case 'codex': {
      const args = JSON.parse(/^args = (\[.*\])$/m.exec(text)?.[1] ?? '[]') as string[];
      const envLine = /^env = \{ (.*) \}$/m.exec(text)?.[1] ?? '';
      const env = Object.fromEntries([...envLine.matchAll(/(\w+) = ("(?:[^"\\]|\\.)*")/g)].map((m) => [m[1] ?? '', JSON.parse(m[2] ?? '""') as string]));
      assert.match(text, /^\[mcp_servers\.stratus-console\]\ncommand = "node"$/m);
      return { command: 'node', args, env };
    }
    case 'cline':
      return (JSON.parse(text) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> }).mcpServers['stratus-console'] ?? assert.fail('no server');
    default:
      return (JSON.parse(text) as { context_servers: Record<string, { command: string; args: string[]; env: Record<string, string> }> }).context_servers['stratus-console'] ?? assert.fail('no server');
  }
}

describe('mcp setup: the configurations for other agents (pure)', () => {
  for (const agent of AGENTS) {
    it(`${agent.label}: node, the server path, the environment it reads, read-only unless writes are allowed, no secret`, () => {
      for (const writes of [false, true]) {
        const text = agentConfig(agent.id, launch(writes));
        const server = readBack(agent.id, text);
        assert.equal(server.command, 'node');
        assert.deepEqual(server.args, [launch(writes).serverPath, ...(writes ? ['--allow-writes'] : [])]);
        assert.deepEqual(server.env, launchEnv(launch(writes)));
        assert.equal(server.env.STRATUS_PAT_ID, PAT_ID_PLACEHOLDER);
        assert.equal(server.env.STRATUS_PAT_SECRET, PAT_SECRET_PLACEHOLDER);
        // What the server makes of it: the same flags and variables, no problem.
        const options = parseOptions(server.args.slice(1), server.env);
        assert.deepEqual(options.problems, []);
        assert.equal(options.allowWrites, writes);
        assert.deepEqual(options.headers, { 'X-Tenant': 'acme' });
      }
    });
  }
});
