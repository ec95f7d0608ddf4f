import * as vscode from 'vscode';
import { DisposableStore } from '../../platform/disposables';
import { SecretKeys } from '../../platform/secrets';
import type { Deps } from '../deps';

/** The walkthrough's id in `contributes.walkthroughs`. */
export const WALKTHROUGH_ID = 'stratus.gettingStarted';
/** "Stratus: Get Started": opens the walkthrough. */
export const OPEN_WALKTHROUGH_COMMAND = 'stratus.openWalkthrough';
/** globalState flag: the walkthrough was opened once (first run); never again on its own. */
export const WALKTHROUGH_SHOWN_KEY = 'stratus.walkthrough.shown';

/** Context keys that complete the walkthrough's steps, set when the real event happens. */
export const OnboardingContext = {
  /** An inference API key is stored (or given by the environment). */
  apiKeySet: 'stratus.walkthrough.apiKeySet',
  /** A model answered a request of this window (@stratus or Complete Selection). */
  modelAnswered: 'stratus.walkthrough.modelAnswered',
} as const;

export interface OnboardingOptions {
  readonly globalState: vscode.Memento;
  /** `publisher.name`, for `workbench.action.openWalkthrough`. */
  readonly extensionId: string;
  /** ExtensionMode.Test: the first run is left to the host test (it would open an editor under other suites). */
  readonly testMode: boolean;
}

export interface OnboardingTestApi {
  /** The first-run step, as activation runs it: opens the walkthrough unless already shown. Resolves true when it opened it. */
  firstRun(): Promise<boolean>;
  /** Whether the first-run flag is set. */
  shown(): boolean;
  /** Clears the first-run flag and the "a model answered" key, as in a new profile. */
  reset(): Promise<void>;
  /** Current values of the walkthrough context keys. */
  contextKeys(): Readonly<Record<keyof typeof OnboardingContext, boolean>>;
}

/** The first-run walkthrough and the context keys its steps complete on. */
export function register(deps: Deps, options: OnboardingOptions): { disposable: vscode.Disposable; testApi: OnboardingTestApi } {
  const store = new DisposableStore();
  const keys: Record<keyof typeof OnboardingContext, boolean> = { apiKeySet: false, modelAnswered: false };
  const setKey = (name: keyof typeof OnboardingContext, value: boolean): void => {
    if (keys[name] === value) return;
    keys[name] = value;
    void vscode.commands.executeCommand('setContext', OnboardingContext[name], value);
  };

  const walkthrough = `${options.extensionId}#${WALKTHROUGH_ID}`;
  const open = async (): Promise<void> => {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthrough, false);
  };
  store.add(vscode.commands.registerCommand(OPEN_WALKTHROUGH_COMMAND, () => open()));

  // Step "Set the API key": from SecretStorage (this window or another) and the environment.
  const refreshApiKey = async (): Promise<void> => {
    setKey('apiKeySet', (await deps.secrets.get(SecretKeys.inferenceApiKey)) !== undefined);
  };
  store.add(deps.secrets.onDidChange((key) => {
    if (key === SecretKeys.inferenceApiKey) void refreshApiKey();
  }));
  void refreshApiKey();

  // Step "Pick a model and ask @stratus": an answer names the model that gave it.
  const onStatus = (): void => {
    const state = deps.connectionStatus.state;
    if (state.kind === 'connected' && state.model !== undefined) setKey('modelAnswered', true);
  };
  store.add(deps.connectionStatus.onDidChange(onStatus));
  onStatus();

  const firstRun = async (): Promise<boolean> => {
    if (options.globalState.get<boolean>(WALKTHROUGH_SHOWN_KEY) === true) return false;
    // VS Code's own switch for opening an extension's walkthrough when it is installed.
    if (vscode.workspace.getConfiguration('workbench.welcomePage').get<boolean>('walkthroughs.openOnInstall') === false) return false;
    await options.globalState.update(WALKTHROUGH_SHOWN_KEY, true);
    try {
      await open();
    } catch (error) {
      deps.logger.warn('Could not open the Stratus walkthrough', error);
      return false;
    }
    return true;
  };
  if (!options.testMode) void firstRun();

  const reset = async (): Promise<void> => {
    await options.globalState.update(WALKTHROUGH_SHOWN_KEY, undefined);
    setKey('modelAnswered', false);
  };
  return { disposable: store, testApi: { firstRun, reset, shown: () => options.globalState.get<boolean>(WALKTHROUGH_SHOWN_KEY) === true, contextKeys: () => ({ ...keys }) } };
}
