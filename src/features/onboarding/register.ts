import * as vscode from 'vscode';
import { afterActivation } from '../../platform/afterActivation';
import { DisposableStore } from '../../platform/disposables';
import type { Deps } from '../deps';
import { trackStepState, vscodeStepSink, type OnboardingKey } from './stepState';

/** The walkthrough's id in `contributes.walkthroughs`. */
export const WALKTHROUGH_ID = 'stratus.gettingStarted';
/** "Stratus: Get Started": opens the walkthrough. */
export const OPEN_WALKTHROUGH_COMMAND = 'stratus.openWalkthrough';
/** globalState flag: the walkthrough was opened once (first run); never again on its own. */
export const WALKTHROUGH_SHOWN_KEY = 'stratus.walkthrough.shown';

export { OnboardingContext } from './stepState';

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
  contextKeys(): Readonly<Record<OnboardingKey, boolean>>;
}

/** The first-run walkthrough and the context keys its steps complete on. */
export function register(deps: Deps, options: OnboardingOptions): { disposable: vscode.Disposable; testApi: OnboardingTestApi } {
  const store = new DisposableStore();
  const walkthrough = `${options.extensionId}#${WALKTHROUGH_ID}`;
  const open = async (): Promise<void> => {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthrough, false);
  };
  store.add(vscode.commands.registerCommand(OPEN_WALKTHROUGH_COMMAND, () => open()));

  // The steps that follow the set-up's real state (endpoint, key, first answer).
  const steps = store.add(trackStepState({
    secrets: deps.secrets,
    settings: deps.settings,
    connectionStatus: deps.connectionStatus,
    console: deps.console,
    ...(deps.walkthrough ? { progress: deps.walkthrough } : {}),
    walkthrough,
    sink: vscodeStepSink,
    onError: (message, error) => deps.logger.warn(message, error),
  }));

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
  if (!options.testMode) store.add(afterActivation(() => void firstRun()));

  const reset = async (): Promise<void> => {
    await options.globalState.update(WALKTHROUGH_SHOWN_KEY, undefined);
    steps.resetAnswered();
  };
  return { disposable: store, testApi: { firstRun, reset, shown: () => options.globalState.get<boolean>(WALKTHROUGH_SHOWN_KEY) === true, contextKeys: () => steps.keys() } };
}
