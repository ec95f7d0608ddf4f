import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { boundedConfiguration, heldBack, SETTING_POLICIES } from '../../../src/platform/settingsPolicy';

interface Contributed {
  readonly scope?: string;
  readonly type?: string | string[];
  readonly enum?: readonly string[];
}

function contributedSettings(): Map<string, Contributed> {
  const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, Contributed> } | { properties: Record<string, Contributed> }[] } };
  const sections = Array.isArray(manifest.contributes.configuration) ? manifest.contributes.configuration : [manifest.contributes.configuration];
  return new Map(sections.flatMap((s) => Object.entries(s.properties)));
}

type Inspected = NonNullable<ReturnType<vscode.WorkspaceConfiguration['inspect']>>;

/** A configuration whose `inspect()` answers as VS Code's does, from the given levels of each full key. */
function configuration(section: string, levels: Record<string, Partial<Inspected>>): Pick<vscode.WorkspaceConfiguration, 'inspect'> {
  const inspect = (key: string): Inspected => ({ key: `${section}.${key}`, ...levels[`${section}.${key}`] });
  return { inspect } as Pick<vscode.WorkspaceConfiguration, 'inspect'>;
}

const types = (c: Contributed): string[] => (Array.isArray(c.type) ? c.type : [c.type ?? '']);

describe('settings: a workspace may only make Stratus send less or ask more (issue 40 item 15)', () => {
  it('every setting in package.json is classified, and every classification is a setting', () => {
    const settings = contributedSettings();
    const unclassified = [...settings.keys()].filter((k) => !(k in SETTING_POLICIES));
    assert.deepEqual(unclassified, [], 'classify each new setting in src/platform/settingsPolicy.ts (SETTING_POLICIES)');
    assert.deepEqual(Object.keys(SETTING_POLICIES).filter((k) => !settings.has(k)), [], 'no policy for a setting package.json no longer has');
  });

  it('each classification fits its setting: user-only for machine/application scope, booleans, numbers and enums where a direction is declared', () => {
    for (const [key, contributed] of contributedSettings()) {
      const policy = SETTING_POLICIES[key];
      const scope = contributed.scope ?? 'window';
      if (scope === 'machine' || scope === 'application' || scope === 'machine-overridable') assert.equal(policy?.kind, 'user', `${key} (${scope})`);
      if (policy?.kind === 'offOnly' || policy?.kind === 'onOnly') assert.deepEqual(types(contributed), ['boolean'], key);
      if (policy?.kind === 'lowerOnly' || policy?.kind === 'higherOnly') assert.ok(types(contributed).some((t) => t === 'integer' || t === 'number'), key);
      if (policy?.kind === 'order') assert.deepEqual([...policy.safestFirst].sort(), [...(contributed.enum ?? [])].sort(), key);
    }
  });

  it("a repository's 1e12 for review.confirmAboveTokens is ignored: the user's threshold (or the default) stays in force; a lower one counts", () => {
    const read = (levels: Partial<Inspected>): number => boundedConfiguration(configuration('stratus', { 'stratus.review.confirmAboveTokens': { defaultValue: 40_000, ...levels } }), 'stratus').get<number>('review.confirmAboveTokens', 40_000);
    assert.equal(read({ workspaceValue: 1e12 }), 40_000);
    assert.equal(read({ globalValue: 100_000, workspaceValue: 1e12 }), 100_000);
    assert.equal(read({ globalValue: 100_000, workspaceFolderValue: 1e12 }), 100_000);
    assert.equal(read({ globalValue: 100_000, workspaceValue: 5_000 }), 5_000, 'asking sooner is the workspace’s to choose');
    assert.equal(read({ workspaceValue: '1e12' as unknown as number }), 40_000, 'a wrong-typed value counts for nothing');
  });

  it("a repository's true for completion.inline.enabled is ignored against the user's false; its false counts against the user's true", () => {
    const read = (levels: Partial<Inspected>): boolean | undefined => boundedConfiguration(configuration('stratus.completion.inline', { 'stratus.completion.inline.enabled': { defaultValue: true, ...levels } }), 'stratus.completion.inline').get<boolean>('enabled', true);
    assert.equal(read({ globalValue: false, workspaceValue: true }), false);
    assert.equal(read({ globalValue: false, workspaceFolderValue: true }), false);
    assert.equal(read({ globalValue: false, workspaceLanguageValue: true }), false, 'a [language] block in the workspace settings too');
    assert.equal(read({ globalValue: true, workspaceValue: false }), false);
    assert.equal(read({ workspaceFolderValue: false }), false);
    assert.equal(read({}), true);
  });

  it('the other directions: a language only turned off, a debounce only raised, .gitignore only honoured, OCR only narrowed, user-only settings from the user alone', () => {
    const config = configuration('stratus', {
      'stratus.completion.inline.languages': { defaultValue: { '*': true, markdown: false }, globalValue: { python: false }, workspaceValue: { python: true, go: false, '*': true } },
      'stratus.completion.inline.debounceMs': { defaultValue: 100, globalValue: 300, workspaceValue: 0 },
      'stratus.search.useGitignore': { defaultValue: true, globalValue: false, workspaceValue: true },
      'stratus.documents.mode': { defaultValue: 'auto', workspaceValue: 'ocrAll' },
      'stratus.usage.monthlyBudget': { defaultValue: null, workspaceValue: 50 },
      'stratus.agent.autoApproveCommands': { defaultValue: [], workspaceValue: ['npm test'] },
      'stratus.chat.model': { defaultValue: '', workspaceValue: 'gpt-oss:120b' },
    });
    const read = boundedConfiguration(config, 'stratus');
    assert.deepEqual(read.get('completion.inline.languages'), { '*': true, markdown: false, python: false, go: false });
    assert.equal(read.get('completion.inline.debounceMs'), 300);
    assert.equal(read.get('search.useGitignore'), true);
    assert.equal(read.get('documents.mode'), 'auto');
    assert.equal(read.get('usage.monthlyBudget'), 50, 'a budget where the user set none: it only warns more');
    assert.deepEqual(read.get('agent.autoApproveCommands'), []);
    assert.equal(read.get('chat.model'), 'gpt-oss:120b', 'free: which model answers');
  });

  it('a toggle that turns on what the user turned off is held back from a workspace (so the user settings are written too)', () => {
    const inspected = { key: 'stratus.nextEdit.enabled', defaultValue: true, globalValue: false, workspaceValue: false } as Inspected;
    assert.equal(heldBack('stratus.nextEdit.enabled', inspected, true), true);
    assert.equal(heldBack('stratus.nextEdit.enabled', inspected, false), false);
    assert.equal(heldBack('stratus.nextEdit.enabled', { ...inspected, globalValue: undefined }, true), false);
  });
});
