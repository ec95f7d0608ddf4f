import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { DEFAULT_COMMAND_ALLOWLIST } from '../../../src/core/agent/commands';
import { DEFAULT_CATALOG } from '../../../src/core/console/catalog/builtInKinds';
import { ToolNames } from '../../../src/core/agent/toolNames';

interface ToolContribution { name: string; modelDescription: string; tags: string[]; inputSchema: { properties: Record<string, { enum?: string[] }> } }
const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { languageModelTools: ToolContribution[]; configuration: { properties: Record<string, { default?: unknown; scope?: string }> }[] };
};
const tools = pkg.contributes.languageModelTools;
const settings = Object.assign({}, ...pkg.contributes.configuration.map((section) => section.properties)) as Record<string, { default?: unknown; scope?: string }>;

describe('agent: package.json tool contributions', () => {
  it('declares exactly the tools the feature registers, with compiling schemas and model descriptions', () => {
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.values(ToolNames).sort());
    for (const tool of tools) {
      assert.ok(tool.modelDescription.length > 100, tool.name);
      assert.ok(tool.tags.includes('stratus'));
      assert.equal(new Validator(tool.inputSchema as never, '2020-12').validate('not an object').valid, false);
    }
  });

  it('cloud tool enums match the resource catalog', () => {
    const kinds = DEFAULT_CATALOG.map((k) => k.id).sort();
    for (const name of [ToolNames.listResources, ToolNames.describeResource, ToolNames.cloudAction]) {
      assert.deepEqual([...(tools.find((t) => t.name === name)?.inputSchema.properties.kind?.enum ?? [])].sort(), kinds, name);
    }
    const actions = new Set(tools.find((t) => t.name === ToolNames.cloudAction)?.inputSchema.properties.action?.enum);
    for (const kind of DEFAULT_CATALOG) for (const action of kind.actions) assert.ok(actions.has(action.id), `${kind.id}.${action.id}`);
  });

  it('the command allowlist default is the read-only list, and only user settings can change it', () => {
    const allowlist = settings['stratus.tools.commandAllowlist'];
    assert.deepEqual(allowlist?.default, [...DEFAULT_COMMAND_ALLOWLIST]);
    assert.equal(allowlist?.scope, 'application');
    assert.equal(settings['stratus.agent.maxRounds']?.default, 15);
  });

  // Regression (issue 24): a cloned repository's .vscode/settings.json could turn the edit review off.
  it('the edit review preview is a user setting only, on by default', () => {
    assert.equal(settings['stratus.tools.editPreview']?.scope, 'application');
    assert.equal(settings['stratus.tools.editPreview']?.default, true);
    assert.equal(settings['stratus.tools.taskTimeoutSeconds']?.default, 600);
  });
});
