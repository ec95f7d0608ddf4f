import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OnboardingTestApi } from '../../src/features/onboarding/register';
import { stratus } from './extension';
import { control, eventually, sandbox } from './sandbox';

interface Walkthrough {
  id: string;
  title: string;
  steps: { id: string; title: string; description: string; media: { markdown?: string; image?: string }; completionEvents?: string[] }[];
}

async function onboarding(): Promise<OnboardingTestApi> {
  const { api } = await stratus();
  assert.ok(api.onboarding, 'the onboarding internals are exported in test mode');
  return api.onboarding;
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/** Labels of every open tab, for the assertion messages. */
function tabLabels(): string[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.label));
}

async function closeEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

describe('onboarding: first-run walkthrough', function () {
  this.timeout(60_000);

  afterEach(async () => {
    await vscode.workspace.getConfiguration('workbench.welcomePage').update('walkthroughs.openOnInstall', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stratus.removeApiKey');
    await control('/reset', {});
    await closeEditors();
  });

  it('contributes a five-step walkthrough whose steps complete on real events, with Markdown from media/ and strings in English and French', async () => {
    const { extension } = await stratus();
    const manifest = extension.packageJSON as { activationEvents?: string[]; contributes: { walkthroughs?: Walkthrough[] } };
    const walkthroughs = manifest.contributes.walkthroughs ?? [];
    assert.deepEqual(walkthroughs.map((w) => w.id), ['stratus.gettingStarted']);
    const steps = walkthroughs[0]?.steps ?? [];
    assert.deepEqual(steps.map((s) => s.id), ['inferenceEndpoint', 'apiKey', 'askStratus', 'consoleSignIn', 'cloudView']);
    assert.deepEqual(steps.map((s) => s.completionEvents), [
      ['onSettingChanged:stratus.inference.baseUrl'],
      ['onContext:stratus.walkthrough.apiKeySet'],
      ['onContext:stratus.walkthrough.modelAnswered'],
      ['onContext:stratus.console.state == signedIn'],
      ['onView:stratus.resources'],
    ]);
    for (const step of steps) {
      const media = step.media.markdown ?? step.media.image;
      assert.ok(media !== undefined && media.startsWith('media/'), `${step.id}: media outside media/`);
      assert.ok(existsSync(join(extension.extensionPath, media)), `${step.id}: ${media} is missing`);
    }
    // Every %key% of the walkthrough has an English and a French string.
    const raw = readJson(join(extension.extensionPath, 'package.json')) as { contributes: { walkthroughs: Walkthrough[]; commands: { command: string; title: string }[] } };
    const keys: string[] = [...(JSON.stringify(raw.contributes.walkthroughs).match(/%walkthrough\.[\w.]+%/g) ?? [])];
    const getStarted = raw.contributes.commands.find((c) => c.command === 'stratus.openWalkthrough');
    assert.ok(getStarted, 'Stratus: Get Started is contributed');
    keys.push(getStarted.title);
    assert.ok(keys.length >= 11, `only ${keys.length} localised strings`);
    for (const file of ['package.nls.json', 'package.nls.fr.json']) {
      const strings = readJson(join(extension.extensionPath, file));
      const missing = keys.map((k) => k.slice(1, -1)).filter((k) => typeof strings[k] !== 'string' || strings[k] === '');
      assert.deepEqual(missing, [], `${file} lacks ${missing.join(', ')}`);
    }
    // Activation only when needed: no start-up activation.
    assert.ok(!(manifest.activationEvents ?? []).some((e) => e === 'onStartupFinished' || e === '*'), `activationEvents: ${String(manifest.activationEvents)}`);
  });

  it('opens the walkthrough on the first run only, and not when VS Code is told not to open walkthroughs on install', async () => {
    const api = await onboarding();
    await closeEditors();
    await api.reset();
    assert.equal(api.shown(), false);
    assert.equal(await api.firstRun(), true, 'the first run opens the walkthrough');
    assert.equal(api.shown(), true, 'the first run is remembered');
    await eventually(async () => (tabLabels().some((label) => /Stratus|Walkthrough|Welcome/i.test(label)) ? true : undefined), `the walkthrough editor (tabs: ${tabLabels().join(', ')})`);
    await closeEditors();
    assert.equal(await api.firstRun(), false, 'the next start does not open it again');
    assert.deepEqual(tabLabels(), [], 'nothing was opened the second time');

    await api.reset();
    await vscode.workspace.getConfiguration('workbench.welcomePage').update('walkthroughs.openOnInstall', false, vscode.ConfigurationTarget.Global);
    assert.equal(await api.firstRun(), false, 'workbench.welcomePage.walkthroughs.openOnInstall: false is honoured');
    assert.equal(api.shown(), false);
    assert.deepEqual(tabLabels(), []);
  });

  it('"Stratus: Get Started" opens the walkthrough', async () => {
    await closeEditors();
    await vscode.commands.executeCommand('stratus.openWalkthrough');
    await eventually(async () => (tabLabels().length > 0 ? true : undefined), 'an editor for the walkthrough');
  });

  it('sets the API key step\'s context key from the secret store, and the "ask" step\'s when a model answers', async () => {
    const api = await onboarding();
    await api.reset();
    await vscode.commands.executeCommand('stratus.removeApiKey');
    await eventually(async () => (api.contextKeys().apiKeySet === false ? true : undefined), 'apiKeySet to be false without a key');
    assert.equal(api.contextKeys().modelAnswered, false);

    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await eventually(async () => (api.contextKeys().apiKeySet ? true : undefined), 'apiKeySet after Set Inference API Key');
    assert.equal(api.contextKeys().modelAnswered, false, 'storing a key is not an answer');

    // A model that no other suite uses, so the connection state really changes.
    await vscode.workspace.getConfiguration('stratus').update('chat.model', 'qwen3-coder:30b', vscode.ConfigurationTarget.Global);
    const document = await vscode.workspace.openTextDocument({ content: 'const answer =', language: 'javascript' });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 0, document.lineAt(0).text.length);
    const outcome = await vscode.commands.executeCommand<{ status: string }>('stratus.completeSelection');
    assert.equal(outcome.status, 'completed');
    await eventually(async () => (api.contextKeys().modelAnswered ? true : undefined), 'modelAnswered after a model answered');

    await vscode.commands.executeCommand('stratus.removeApiKey');
    await eventually(async () => (api.contextKeys().apiKeySet === false ? true : undefined), 'apiKeySet false again after Remove Inference API Key');
  });
});
