import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..');
const read = (file: string): unknown => JSON.parse(readFileSync(join(repoRoot, file), 'utf8'));

interface Setting {
  type?: string | string[];
  scope?: string;
  order?: number;
  markdownDescription?: string;
  description?: string;
  enum?: string[];
  enumDescriptions?: string[];
  markdownEnumDescriptions?: string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
}
interface Section { id?: string; title: string; order?: number; properties: Record<string, Setting> }
interface Manifest {
  l10n?: string;
  contributes: {
    configuration: Section[];
    commands: { command: string; title: string; category?: string }[];
    languageModelTools: { name: string; displayName: string; userDescription: string; modelDescription: string }[];
  };
}

const manifest = read('package.json') as Manifest;
const english = read('package.nls.json') as Record<string, string>;
const french = read('package.nls.fr.json') as Record<string, string>;

/** Every `%key%` placeholder in a JSON value. */
function placeholders(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    const match = /^%([^%\s]+)%$/.exec(value);
    if (match?.[1] !== undefined) found.push(match[1]);
  } else if (Array.isArray(value)) {
    for (const item of value) placeholders(item, found);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) placeholders(item, found);
  }
  return found;
}

/** Settings whose value decides where a secret goes or what a command may run: user settings only. */
const APPLICATION_SCOPED = ['stratus.inference.baseUrl', 'stratus.console.baseUrl', 'stratus.console.resourcePaths', 'stratus.tools.commandAllowlist', 'stratus.agent.instructionsFile',
  // Gateways and what a request costs (issue 32): a workspace cannot set them.
  'stratus.inference.headers', 'stratus.console.headers', 'stratus.models.extraBody', 'stratus.models.overrides', 'stratus.models.reasoningEffort',
  // The console's MCP server (issue 43): whether it runs, and whether it may write, are the user's choice only.
  'stratus.mcp.enabled', 'stratus.mcp.allowWrites'];

describe('l10n: manifest strings and settings sections', () => {
  it('every manifest placeholder has an English and a French string, and no string is unused', () => {
    const used = new Set(placeholders(manifest.contributes).concat(placeholders((manifest as unknown as { capabilities: unknown }).capabilities)));
    assert.ok(used.size > 100, `only ${used.size} placeholders`);
    for (const key of used) {
      assert.equal(typeof english[key], 'string', `package.nls.json lacks ${key}`);
      assert.equal(typeof french[key], 'string', `package.nls.fr.json lacks ${key}`);
    }
    assert.deepEqual(Object.keys(english).filter((key) => !used.has(key)), [], 'unused English keys');
    assert.deepEqual(Object.keys(french).sort(), Object.keys(english).sort(), 'French and English keys differ');
  });

  it('the French strings are translated (not copies), keep the same command links and code spans', () => {
    const sameAllowed = new Set(['viewsContainers.stratus.title', 'commands.category', 'languageModelChatProviders.stratus.displayName', 'views.stratus.resources.name', 'configuration.chat.title', 'configuration.console.title', 'configuration.transcription.title']);
    for (const [key, value] of Object.entries(english)) {
      if (!sameAllowed.has(key)) assert.notEqual(french[key], value, `${key} is not translated`);
      const links = (text: string | undefined): string[] => [...(text ?? '').matchAll(/\(command:[^)]+\)|`[^`]+`/g)].map((m) => m[0]).sort();
      assert.deepEqual(links(french[key]), links(value), `${key}: links or code spans differ`);
    }
  });

  it('commands and tools show localised text, while tools keep their English model descriptions', () => {
    for (const command of manifest.contributes.commands) assert.match(command.title, /^%commands\.[\w.]+\.title%$/, command.command);
    for (const tool of manifest.contributes.languageModelTools) {
      assert.match(tool.displayName, /^%.+%$/, tool.name);
      assert.match(tool.userDescription, /^%.+%$/, tool.name);
      assert.doesNotMatch(tool.modelDescription, /%/, `${tool.name}: the model description stays English in the manifest`);
    }
    assert.equal(manifest.l10n, './l10n');
  });

  it('settings come in titled, ordered sections, each with a scope, an order and a markdown description', () => {
    const sections = manifest.contributes.configuration;
    assert.ok(Array.isArray(sections));
    const titles = sections.map((s) => english[s.title.slice(1, -1)]);
    for (const title of ['Inference', 'Chat', 'Console', 'Network', 'Search', 'Usage', 'Transcription', 'Agent and Tools']) assert.ok(titles.includes(title), title);
    assert.deepEqual(sections.map((s) => s.order), sections.map((_, i) => i + 1));
    const seen = new Set<string>();
    for (const section of sections) {
      const orders = Object.values(section.properties).map((p) => p.order);
      assert.deepEqual(orders, orders.map((_, i) => i + 1), `${section.title}: order within the section`);
      for (const [key, setting] of Object.entries(section.properties)) {
        assert.ok(!seen.has(key), `${key} twice`);
        seen.add(key);
        assert.ok(setting.scope === 'application' || setting.scope === 'window' || setting.scope === 'resource' || setting.scope === 'machine', `${key}: scope`);
        assert.match(setting.markdownDescription ?? '', /^%configuration\..+%$/, `${key}: markdownDescription`);
        assert.equal(setting.description, undefined, `${key}: plain description`);
        if (setting.enum) assert.equal((setting.markdownEnumDescriptions ?? setting.enumDescriptions)?.length, setting.enum.length, `${key}: enum descriptions`);
        if (setting.type === 'number') assert.fail(`${key}: 'number' where an integer is meant`);
        if (setting.type === 'integer') assert.ok(Number.isInteger(setting.default), `${key}: integer default`);
      }
    }
    for (const key of APPLICATION_SCOPED) {
      const setting = sections.map((s) => s.properties[key]).find((s) => s !== undefined);
      assert.equal(setting?.scope, 'application', key);
    }
  });
});
