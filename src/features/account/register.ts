import * as vscode from 'vscode';
import { SecretEnvironmentVariables, SecretKeys, type SecretKey } from '../../platform/secrets';
import { DisposableStore } from '../../platform/disposables';
import { showPresentedError } from '../../platform/errorNotification';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { validateApiKey, validatePatPart } from '../../core/inputValidation';
import { VENDOR } from '../../platform/languageModelInfo';
import { credentialArgument } from '../../core/commandTestArguments';

export interface AccountOptions {
  /** ExtensionMode.Test: credentials may be passed as command arguments instead of typed. */
  readonly testMode: boolean;
}

/**
 * Set or remove the inference API key, sign in to or out of the console (PAT id + secret).
 * Secrets go to SecretStorage only; each command touches only its own secret.
 */
export function register(deps: Deps, options: AccountOptions): vscode.Disposable {
  const store = new DisposableStore();
  const { secrets, logger } = deps;

  const refreshContext = async (): Promise<void> => {
    const [apiKey, patId] = await Promise.all([secrets.get(SecretKeys.inferenceApiKey), secrets.get(SecretKeys.patId)]);
    await vscode.commands.executeCommand('setContext', 'stratus.hasApiKey', apiKey !== undefined);
    await vscode.commands.executeCommand('setContext', 'stratus.signedIn', patId !== undefined);
  };

  store.add(
    vscode.commands.registerCommand(Commands.setApiKey, async (value?: unknown) => {
      // Host tests may pass the key; people (and everyone outside test mode) get a password prompt.
      const key = credentialArgument(value, options.testMode, isString) ?? await vscode.window.showInputBox({
        title: vscode.l10n.t('Stratus: Set Inference API Key'),
        prompt: vscode.l10n.t('Paste the inference API key created in the console. It is kept in the OS secret store.'),
        password: true,
        ignoreFocusOut: true,
        validateInput: validateApiKey,
      });
      if (key === undefined) return false;
      const problem = validateApiKey(key);
      if (problem) {
        void vscode.window.showErrorMessage(`Stratus: ${problem}`);
        return false;
      }
      // The models are listed again with the new key and the provider's change event fired before
      // the command returns, whatever state the provider was in (a 401 listing in flight, a
      // placeholder resolved) and whenever SecretStorage's change event comes: a first question
      // asked right after it does not meet "Language model unavailable".
      await secrets.set(SecretKeys.inferenceApiKey, key.trim());
      await deps.inference.reload();
      await vscode.lm.selectChatModels({ vendor: VENDOR }).then(undefined, () => undefined);
      logger.info('Inference API key stored in secret storage.');
      void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: inference API key saved.'));
      return true;
    }),
  );

  store.add(
    vscode.commands.registerCommand(Commands.signIn, async (value?: unknown) => {
      const given = credentialArgument(value, options.testMode, isPat);
      const id = given?.id ?? await vscode.window.showInputBox({
        title: vscode.l10n.t('Stratus: Sign In to Console (1/2)'),
        prompt: vscode.l10n.t('Personal access token ID (console → profile → personal access tokens)'),
        ignoreFocusOut: true,
        validateInput: (v) => validatePatPart(v, 'ID'),
      });
      if (id === undefined) return false;
      const secret = given?.secret ?? await vscode.window.showInputBox({
        title: vscode.l10n.t('Stratus: Sign In to Console (2/2)'),
        prompt: vscode.l10n.t('Personal access token secret (shown once when the token was created)'),
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => validatePatPart(v, 'secret'),
      });
      if (secret === undefined) return false;
      const problem = validatePatPart(id, 'ID') ?? validatePatPart(secret, 'secret');
      if (problem) {
        void vscode.window.showErrorMessage(`Stratus: ${problem}`);
        return false;
      }
      await secrets.set(SecretKeys.patId, id.trim());
      await secrets.set(SecretKeys.patSecret, secret.trim());
      logger.info('Console personal access token stored in secret storage.');
      const state = await vscode.window.withProgress({ location: { viewId: 'stratus.resources' }, title: vscode.l10n.t('Signing in…') }, () => deps.console.resume());
      if (state.kind === 'signedIn') {
        void vscode.window.showInformationMessage(state.session.tenantId
          ? vscode.l10n.t('Stratus: signed in to the console (tenant {0}).', state.session.tenantId)
          : vscode.l10n.t('Stratus: signed in to the console.'));
        return true;
      }
      const why = state.kind === 'rejected' || state.kind === 'error' ? state.message : state.kind === 'notConfigured' ? vscode.l10n.t('Set stratus.console.baseUrl first.') : vscode.l10n.t('Not signed in.');
      // Not awaited: the command's result must not wait for someone to read the message.
      const message = vscode.l10n.t('Stratus: console sign-in failed. {0}', why);
      void showPresentedError({ message, actions: ['showLog'] }, {
        log: deps.logChannel,
        text: message,
        extra: [{ id: 'signInAgain', title: vscode.l10n.t('Sign In Again'), run: () => vscode.commands.executeCommand(Commands.signIn) }],
      });
      return false;
    }),
  );

  /** Console sign-out: the PAT (id + secret) from SecretStorage and the in-memory JWT. Nothing else. */
  const signOutOfConsole = async (): Promise<boolean> => {
    await Promise.all(CONSOLE_KEYS.map((key) => secrets.delete(key)));
    deps.console.signOut();
    logger.info('Signed out of the console: personal access token removed from secret storage, access token forgotten.');
    void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: signed out of the console. The personal access token was removed.') + environmentNote(secrets, CONSOLE_KEYS));
    return true;
  };
  store.add(vscode.commands.registerCommand(Commands.signOutOfConsole, signOutOfConsole));
  // The former "Sign Out" id (menus, keybindings and scripts may still use it): the console sign-out only.
  store.add(vscode.commands.registerCommand(Commands.signOut, signOutOfConsole));

  store.add(
    vscode.commands.registerCommand(Commands.removeApiKey, async () => {
      await secrets.delete(SecretKeys.inferenceApiKey);
      logger.info('Inference API key removed from secret storage.');
      void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: inference API key removed.') + environmentNote(secrets, [SecretKeys.inferenceApiKey]));
      return true;
    }),
  );

  // Another window may sign in or out: keep view state in step.
  store.add(secrets.onDidChange(() => void refreshContext()));
  void refreshContext();
  return store;
}

export async function secretsStatus(secrets: Deps['secrets']): Promise<{ apiKey: boolean; pat: boolean }> {
  const [apiKey, patId, patSecret] = await Promise.all([
    secrets.get(SecretKeys.inferenceApiKey), secrets.get(SecretKeys.patId), secrets.get(SecretKeys.patSecret),
  ]);
  return { apiKey: apiKey !== undefined, pat: patId !== undefined && patSecret !== undefined };
}

const CONSOLE_KEYS = [SecretKeys.patId, SecretKeys.patSecret] as const;

/** Says which of `keys` still apply from environment variables (they cannot be removed from here). */
function environmentNote(secrets: Deps['secrets'], keys: readonly SecretKey[]): string {
  const fromEnvironment = keys.filter((key) => secrets.fromEnvironment(key) !== undefined);
  return fromEnvironment.length > 0
    ? ` ${vscode.l10n.t('The value from {0} still applies in this window.', fromEnvironment.map((key) => SecretEnvironmentVariables[key]).join(', '))}`
    : '';
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isPat(value: unknown): value is { id: string; secret: string } {
  return typeof value === 'object' && value !== null
    && typeof (value as { id?: unknown }).id === 'string'
    && typeof (value as { secret?: unknown }).secret === 'string';
}
