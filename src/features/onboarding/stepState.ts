import * as vscode from 'vscode';
import { afterActivation } from '../../platform/afterActivation';
import { DisposableStore } from '../../platform/disposables';
import { SecretKeys, type SecretStore } from '../../platform/secrets';
import { onSettingsChanged, type StratusSettings } from '../../platform/settings';
import type { ConnectionStatus } from '../../services/connectionStatus';
import type { ConsoleConnection } from '../../services/consoleConnection';
import type { WalkthroughProgress } from '../../services/walkthroughProgress';

/** Context keys that complete the walkthrough's steps (package.json `completionEvents`). */
export const OnboardingContext = {
  /** `stratus.inference.baseUrl` is set (user settings). */
  endpointSet: 'stratus.walkthrough.endpointSet',
  /** An inference API key is stored (or given by the environment). */
  apiKeySet: 'stratus.walkthrough.apiKeySet',
  /** A model answered a request of this window (@stratus or Complete Selection). */
  modelAnswered: 'stratus.walkthrough.modelAnswered',
} as const;
export type OnboardingKey = keyof typeof OnboardingContext;

/** The walkthrough step each key completes (`steps[].id` in package.json). */
export const STEP_OF_KEY: Record<OnboardingKey, string> = { endpointSet: 'inferenceEndpoint', apiKeySet: 'apiKey', modelAnswered: 'askStratus' };

/** The steps marked from the console's state and from what features report (`steps[].id`). */
export const CONSOLE_SIGN_IN_STEP = 'consoleSignIn';
export const CLOUD_VIEW_STEP = 'cloudView';

/** Where the state goes: VS Code's context keys and walkthrough progress (replaced in tests). */
export interface StepSink {
  setContext(key: string, value: boolean): Thenable<unknown>;
  /** Marks a walkthrough step (`publisher.name#walkthrough#step`) done or not done. */
  markStep(stepId: string, done: boolean): Thenable<unknown>;
}

export const vscodeStepSink: StepSink = {
  setContext: (key, value) => vscode.commands.executeCommand('setContext', key, value),
  markStep: (stepId, done) => vscode.commands.executeCommand(done ? 'welcome.markStepComplete' : 'welcome.markStepIncomplete', stepId),
};

export interface StepStateOptions {
  readonly secrets: Pick<SecretStore, 'get' | 'onDidChange'>;
  readonly settings: () => Pick<StratusSettings, 'inferenceBaseUrl'>;
  readonly connectionStatus: Pick<ConnectionStatus, 'state' | 'onDidChange'>;
  /** The console sign-in (the sign-in step) and what features report (the Cloud view step); absent in tests that check neither. */
  readonly console?: Pick<ConsoleConnection, 'state' | 'onDidChangeState'>;
  readonly progress?: Pick<WalkthroughProgress, 'has' | 'onDidReach'>;
  /** `publisher.name#walkthroughId`: the prefix of the walkthrough's step ids. */
  readonly walkthrough: string;
  readonly sink: StepSink;
  readonly onError: (message: string, error: unknown) => void;
}

export interface StepState extends vscode.Disposable {
  /** Current values of the keys, as last sent. */
  keys(): Readonly<Record<OnboardingKey, boolean>>;
  /** Resolves once the first read of every key (the secret store is asynchronous) is sent. */
  readonly ready: Promise<void>;
  /** Forgets that a model answered (as in a new window). */
  resetAnswered(): void;
}

/**
 * Keeps the walkthrough's steps in line with the real state, from activation on and at each change.
 * A context key alone is not enough: VS Code takes a key that is already true when it registers
 * the walkthrough (it does so lazily, often after Stratus activated) for a past event and never
 * completes the step; so each known state also marks the step itself (welcome.markStepComplete).
 * "A model answered" only ever completes its step: a new window has not answered yet.
 */
export function trackStepState(options: StepStateOptions): StepState {
  const store = new DisposableStore();
  const keys: Record<OnboardingKey, boolean | undefined> = { endpointSet: undefined, apiKeySet: undefined, modelAnswered: undefined };
  const send = async (name: OnboardingKey, value: boolean): Promise<void> => {
    if (keys[name] === value) return;
    keys[name] = value;
    try {
      await options.sink.setContext(OnboardingContext[name], value);
      if (value || name !== 'modelAnswered') await options.sink.markStep(`${options.walkthrough}#${STEP_OF_KEY[name]}`, value);
    } catch (error) {
      options.onError(`Could not update the walkthrough step ${STEP_OF_KEY[name]}`, error);
    }
  };

  const refreshEndpoint = (settings: Pick<StratusSettings, 'inferenceBaseUrl'>): Promise<void> => send('endpointSet', settings.inferenceBaseUrl !== '');
  store.add(onSettingsChanged((settings) => void refreshEndpoint(settings)));

  // From SecretStorage (this window or another) and the environment.
  const refreshApiKey = async (): Promise<void> => {
    let value: string | undefined;
    try {
      value = await options.secrets.get(SecretKeys.inferenceApiKey);
    } catch (error) {
      options.onError('Could not read the API key for the walkthrough', error);
    }
    await send('apiKeySet', value !== undefined);
  };
  store.add(options.secrets.onDidChange((key) => {
    if (key === SecretKeys.inferenceApiKey) void refreshApiKey();
  }));

  // An answer names the model that gave it.
  const onStatus = async (): Promise<void> => {
    const state = options.connectionStatus.state;
    if (state.kind === 'connected' && state.model !== undefined) await send('modelAnswered', true);
  };
  store.add(options.connectionStatus.onDidChange(() => void onStatus()));

  // Steps VS Code completes on its own events, which miss a state already reached when it
  // registered the walkthrough (a view restored with the window, a sign-in from a stored token):
  // marked done here too, and never undone (signing out later does not make the step new again).
  const marked = new Set<string>();
  const markDone = async (step: string): Promise<void> => {
    if (marked.has(step)) return;
    marked.add(step);
    try {
      await options.sink.markStep(`${options.walkthrough}#${step}`, true);
    } catch (error) {
      options.onError(`Could not update the walkthrough step ${step}`, error);
    }
  };
  const onConsole = async (): Promise<void> => {
    if (options.console?.state.kind === 'signedIn') await markDone(CONSOLE_SIGN_IN_STEP);
  };
  if (options.console) store.add(options.console.onDidChangeState(() => void onConsole()));
  const onProgress = async (): Promise<void> => {
    if (options.progress?.has('cloudViewShown') === true) await markDone(CLOUD_VIEW_STEP);
  };
  if (options.progress) store.add(options.progress.onDidReach(() => void onProgress()));

  // The first read of each key just after activation (each answer arrives asynchronously anyway);
  // a change before it is sent as it comes, and the first read then finds the same value.
  let disposed = false;
  let start = (): void => undefined;
  const started = new Promise<void>((resolve) => {
    start = resolve;
  });
  const firstRead = afterActivation(() => start());
  const ready = started.then(async () => {
    if (disposed) return;
    await Promise.all([refreshEndpoint(options.settings()), refreshApiKey(), onStatus(), onConsole(), onProgress()]);
  });
  return {
    keys: () => ({ endpointSet: keys.endpointSet === true, apiKeySet: keys.apiKeySet === true, modelAnswered: keys.modelAnswered === true }),
    ready,
    resetAnswered: () => {
      keys.modelAnswered = undefined;
      void options.sink.setContext(OnboardingContext.modelAnswered, false);
    },
    dispose: () => {
      // Disposed before the first read: none is made, and `ready` still settles.
      disposed = true;
      firstRead.dispose();
      start();
      store.dispose();
    },
  };
}
