import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { createStatusBarItem } from '../../src/features/models/statusBar';
import type { OnboardingTestApi } from '../../src/features/onboarding/register';
import { trackStepState, type StepSink } from '../../src/features/onboarding/stepState';
import { SecretKeys } from '../../src/platform/secrets';
import { ConnectionStatus } from '../../src/services/connectionStatus';
import type { ConsoleConnection } from '../../src/services/consoleConnection';
import { WalkthroughProgress } from '../../src/services/walkthroughProgress';
import { onFirstVisible, type VisibleView } from '../../src/platform/firstVisible';
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

  it('contributes a six-step walkthrough whose steps complete on real events, with Markdown from media/ and strings in English and French', async () => {
    const { extension } = await stratus();
    const manifest = extension.packageJSON as { activationEvents?: string[]; contributes: { walkthroughs?: Walkthrough[] } };
    const walkthroughs = manifest.contributes.walkthroughs ?? [];
    assert.deepEqual(walkthroughs.map((w) => w.id), ['stratus.gettingStarted']);
    const steps = walkthroughs[0]?.steps ?? [];
    assert.deepEqual(steps.map((s) => s.id), ['inferenceEndpoint', 'apiKey', 'askStratus', 'ghostText', 'consoleSignIn', 'cloudView', 'agentDepth', 'editWithInstruction', 'documents', 'commitMessage']);
    assert.deepEqual(steps.map((s) => s.completionEvents), [
      ['onContext:stratus.walkthrough.endpointSet'],
      ['onContext:stratus.walkthrough.apiKeySet'],
      ['onContext:stratus.walkthrough.modelAnswered'],
      ['onCommand:stratus.inlineCompletion.menu'],
      ['onContext:stratus.console.state == signedIn'],
      ['onView:stratus.resources'],
      ['onCommand:stratus.agent.reviewChanges'],
      ['onCommand:stratus.editWithInstruction'],
      ['onCommand:stratus.documents.extract'],
      ['onCommand:stratus.generateCommitMessage'],
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
    // Activation once the window has started (never '*', which would delay it), so the first run
    // opens the walkthrough however Stratus was installed; opening the walkthrough activates too.
    assert.ok((manifest.activationEvents ?? []).includes('onStartupFinished'), `activationEvents: ${String(manifest.activationEvents)}`);
    assert.ok(!(manifest.activationEvents ?? []).includes('*'), `activationEvents: ${String(manifest.activationEvents)}`);
    assert.ok((manifest.activationEvents ?? []).includes('onWalkthrough:stratus.gettingStarted'), `activationEvents: ${String(manifest.activationEvents)}`);
  });

  it('opens the walkthrough on the first run only, and not when VS Code is told not to open walkthroughs on install', async () => {
    const api = await onboarding();
    await closeEditors();
    await api.reset();
    // VS Code's default (the test workbench turns it off for the other suites).
    await vscode.workspace.getConfiguration('workbench.welcomePage').update('walkthroughs.openOnInstall', true, vscode.ConfigurationTarget.Global);
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

describe('onboarding: walkthrough steps follow the set-up already in place', () => {
  it('with the endpoint in user settings and the key in the environment at activation, the endpoint and key steps\' context keys are true and both steps are marked done', async () => {
    const { extension } = await stratus();
    const steps = (extension.packageJSON as { contributes: { walkthroughs: Walkthrough[] } }).contributes.walkthroughs[0]?.steps ?? [];
    const completion = (id: string): string[] | undefined => steps.find((s) => s.id === id)?.completionEvents;
    // The harness writes stratus.inference.baseUrl to the user settings before the window opens, as start.sh does.
    const baseUrl = vscode.workspace.getConfiguration('stratus.inference').get<string>('baseUrl');
    assert.ok(baseUrl, 'the host run has an endpoint in the user settings');
    const contexts = new Map<string, boolean>();
    const marked = new Map<string, boolean>();
    const sink: StepSink = {
      setContext: async (key, value) => void contexts.set(key, value),
      markStep: async (stepId, done) => void marked.set(stepId, done),
    };
    const connection = new ConnectionStatus();
    const environment = new Map<string, string>([[SecretKeys.inferenceApiKey, 'from-the-environment']]);
    const state = trackStepState({
      // SecretStore.get answers from the environment when SecretStorage holds nothing (STRATUS_API_KEY).
      secrets: { get: async (key) => environment.get(key), onDidChange: () => new vscode.Disposable(() => undefined) },
      settings: () => ({ inferenceBaseUrl: baseUrl }),
      connectionStatus: connection,
      walkthrough: 'stratus-cloud.stratus#stratus.gettingStarted',
      sink,
      onError: (message) => assert.fail(message),
    });
    try {
      await state.ready;
      // What completes each step is a context key Stratus sets, true from activation on.
      const endpointKey = completion('inferenceEndpoint')?.[0]?.replace(/^onContext:/, '');
      const apiKeyKey = completion('apiKey')?.[0]?.replace(/^onContext:/, '');
      assert.equal(endpointKey, 'stratus.walkthrough.endpointSet', `the endpoint step completes on ${String(completion('inferenceEndpoint'))}`);
      assert.equal(apiKeyKey, 'stratus.walkthrough.apiKeySet');
      assert.equal(contexts.get(endpointKey), true, 'the endpoint step\'s context key');
      assert.equal(contexts.get(apiKeyKey), true, 'the API key step\'s context key');
      assert.deepEqual(state.keys(), { endpointSet: true, apiKeySet: true, modelAnswered: false });
      // VS Code never completes a step whose key was already true when it registered the walkthrough: marked directly.
      assert.equal(marked.get('stratus-cloud.stratus#stratus.gettingStarted#inferenceEndpoint'), true);
      assert.equal(marked.get('stratus-cloud.stratus#stratus.gettingStarted#apiKey'), true);
      assert.equal(marked.has('stratus-cloud.stratus#stratus.gettingStarted#askStratus'), false, 'no answer yet: the ask step is left as it is');
      connection.set({ kind: 'connected', model: 'gpt-oss:120b' });
      await eventually(async () => (marked.get('stratus-cloud.stratus#stratus.gettingStarted#askStratus') === true ? true : undefined), 'the ask step after an answer');
    } finally {
      state.dispose();
      connection.dispose();
    }
  });

  it('the sign-in and Cloud view steps are marked done when reached, also when reached before the walkthrough was tracked', async () => {
    const marked = new Map<string, boolean>();
    const sink: StepSink = { setContext: async () => undefined, markStep: async (stepId, done) => void marked.set(stepId, done) };
    const consoleChanged = new vscode.EventEmitter<void>();
    const fakeConsole = { state: { kind: 'signedOut' } as { kind: string }, onDidChangeState: consoleChanged.event };
    const progress = new WalkthroughProgress();
    progress.reach('cloudViewShown');
    const connection = new ConnectionStatus();
    const state = trackStepState({
      secrets: { get: async () => undefined, onDidChange: () => new vscode.Disposable(() => undefined) },
      settings: () => ({ inferenceBaseUrl: '' }),
      connectionStatus: connection,
      console: fakeConsole as unknown as Pick<ConsoleConnection, 'state' | 'onDidChangeState'>,
      progress,
      walkthrough: 'w',
      sink,
      onError: (message) => assert.fail(message),
    });
    try {
      await state.ready;
      assert.equal(marked.get('w#cloudView'), true, 'a Cloud view shown before the walkthrough was tracked');
      assert.equal(marked.has('w#consoleSignIn'), false, 'not signed in yet');
      fakeConsole.state = { kind: 'signedIn' };
      consoleChanged.fire();
      await eventually(async () => (marked.get('w#consoleSignIn') === true ? true : undefined), 'the sign-in step after signing in');
      fakeConsole.state = { kind: 'signedOut' };
      consoleChanged.fire();
      assert.equal(marked.get('w#consoleSignIn'), true, 'signing out does not undo the step');
    } finally {
      state.dispose();
      connection.dispose();
      progress.dispose();
      consoleChanged.dispose();
    }
  });

  it('the running extension\'s endpoint key is true: the harness set the endpoint before activation', async () => {
    const api = await onboarding();
    await eventually(async () => (api.contextKeys().endpointSet ? true : undefined), 'endpointSet in the activated extension');
  });
});

describe('first run: nothing alarming and nothing sent before set-up', () => {
  it('the status bar item of a window not set up is plain (no warning colour) and leads to the set-up; a fault is in the error colour', () => {
    const status = new ConnectionStatus();
    const bar = createStatusBarItem(status);
    try {
      status.set({ kind: 'notConfigured', missing: 'apiKey' });
      assert.match(bar.item.text, /set up/i);
      assert.equal(bar.item.command, 'stratus.setApiKey');
      assert.equal(bar.item.backgroundColor, undefined, 'not set up yet is not a fault');
      status.set({ kind: 'notConfigured', missing: 'baseUrl' });
      assert.equal(bar.item.backgroundColor, undefined);
      const openSetting: unknown = bar.item.command;
      assert.deepEqual((openSetting as vscode.Command | undefined)?.arguments, ['stratus.inference.baseUrl']);
      status.set({ kind: 'error', message: 'the service answered 503' });
      assert.equal((bar.item.backgroundColor as vscode.ThemeColor | undefined)?.id, 'statusBarItem.errorBackground');
      status.set({ kind: 'connected', model: 'gpt-oss:120b' });
      assert.equal(bar.item.backgroundColor, undefined);
    } finally {
      bar.dispose();
      status.dispose();
    }
  });

  it('the console sign-in waits for the Cloud or Activities view to show, and happens once', () => {
    const views = [fakeView(false), fakeView(false)];
    let signIns = 0;
    const subscription = onFirstVisible(views, () => (signIns += 1));
    try {
      views[1]?.setVisible(false);
      assert.equal(signIns, 0, 'nothing while both views are hidden');
      views[1]?.setVisible(true);
      assert.equal(signIns, 1, 'the Activities view showing signs in');
      views[0]?.setVisible(true);
      views[1]?.setVisible(false);
      views[1]?.setVisible(true);
      assert.equal(signIns, 1, 'once only');
    } finally {
      subscription.dispose();
    }
    // A view already visible when Stratus activates (the Cloud view restored at start-up): at once.
    let early = 0;
    onFirstVisible([fakeView(true), fakeView(false)], () => (early += 1)).dispose();
    assert.equal(early, 1);
  });
});

/** A view whose visibility the test drives. */
function fakeView(visible: boolean): VisibleView & { setVisible(value: boolean): void } {
  const emitter = new vscode.EventEmitter<{ visible: boolean }>();
  const view = {
    visible,
    onDidChangeVisibility: emitter.event,
    setVisible(value: boolean): void {
      view.visible = value;
      emitter.fire({ visible: value });
    },
  };
  return view;
}
