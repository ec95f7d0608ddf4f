// Pure (no `vscode` import): which buttons an error gets and which command each one runs,
// unit-tested in plain Node. The titles and the running live in errorNotification.ts.
import type { ErrorAction } from '../core/presentError';

/**
 * Ids of the extension's commands that error actions run. Declared here, below the features,
 * so the one error surface can run them; src/features/commands.ts takes them from here.
 */
export const ErrorActionCommands = {
  setApiKey: 'stratus.setApiKey',
  signIn: 'stratus.signIn',
  pickModel: 'stratus.pickModel',
  showUsage: 'stratus.showUsage',
  showLog: 'stratus.showLog',
} as const;

/** A command with its arguments (a chat button, or what a notification button runs). */
export interface ActionCommand {
  readonly command: string;
  readonly arguments?: readonly unknown[];
}

/** Actions that re-run what failed: only the feature knows how, so they need a handler from it. */
const FEATURE_ACTIONS: ReadonlySet<ErrorAction> = new Set<ErrorAction>(['retry', 'pickSpeechModel', 'changeOptions']);

/** Whether an action is offered only when the feature gives a handler for it (Retry and the transcription re-runs). */
export function needsHandler(action: ErrorAction): boolean {
  return FEATURE_ACTIONS.has(action);
}

/** The command an action runs when the feature gives none; undefined for the actions that need a handler. */
export function defaultActionCommand(action: ErrorAction): ActionCommand | undefined {
  switch (action) {
    case 'setApiKey':
    case 'signIn':
    case 'pickModel':
    case 'showUsage':
    case 'showLog':
      return { command: ErrorActionCommands[action] };
    case 'openSettings':
      return { command: 'workbench.action.openSettings', arguments: ['stratus.inference'] };
    case 'openSizeSetting':
      return { command: 'workbench.action.openSettings', arguments: ['stratus.transcription.maxFileSizeMB'] };
    case 'retry':
    case 'pickSpeechModel':
    case 'changeOptions':
      return undefined;
  }
}

/**
 * The actions that become buttons, in the order given, each once: an action that needs a handler
 * is dropped when `handled(action)` says the feature gave none (no Retry button without a retry).
 */
export function buttonActions(actions: readonly ErrorAction[], handled: (action: ErrorAction) => boolean): ErrorAction[] {
  const shown: ErrorAction[] = [];
  for (const action of actions) {
    if (shown.includes(action)) continue;
    if (needsHandler(action) && !handled(action)) continue;
    shown.push(action);
  }
  return shown;
}

/** The text of an error notification: a full sentence given by the feature, or "Stratus:" + prefix + message + suffix. */
export function notificationText(message: string, options: { readonly text?: string | undefined; readonly prefix?: string | undefined; readonly suffix?: string | undefined }): string {
  if (options.text !== undefined) return options.text;
  return ['Stratus:', options.prefix, message, options.suffix].filter(Boolean).join(' ');
}
