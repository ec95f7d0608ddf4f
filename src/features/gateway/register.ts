import * as vscode from 'vscode';
import { headerNameProblem, refusalKey, type RefusedHeader } from '../../core/http/gatewayHeaders';
import { parseCapabilityOverrides } from '../../core/inference/models/overrides';
import { afterActivation } from '../../platform/afterActivation';
import { DisposableStore } from '../../platform/disposables';
import { GatewaySecrets, type GatewayScope } from '../../platform/gatewaySecrets';
import { HEADERS_SETTING, readGatewaySettings } from '../../platform/gatewaySettings';
import { credentialArgument } from '../../core/commandTestArguments';
import type { Deps } from '../deps';
import { stratusConfiguration } from '../../platform/settings';

export const SET_GATEWAY_HEADER_SECRET = 'stratus.setGatewayHeaderSecret';

/** Test-mode arguments: `{ scope, name, value }` (value `undefined` removes the header). */
interface SecretHeaderArgument {
  readonly scope: GatewayScope;
  readonly name: string;
  readonly value: string | undefined;
}

function isSecretHeaderArgument(value: unknown): value is SecretHeaderArgument {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (v.scope === 'inference' || v.scope === 'console') && typeof v.name === 'string' && (v.value === undefined || typeof v.value === 'string');
}

function problemText(name: string): string | undefined {
  switch (headerNameProblem(name.trim())) {
    case 'reserved':
      return vscode.l10n.t('{0} is set by Stratus itself (credentials, body framing or connection) and cannot be a gateway header.', name.trim());
    case 'badName':
      return vscode.l10n.t('A header name is letters, digits and - _ . ! # $ % & \' * + ^ ` | ~, without spaces.');
    default:
      return undefined;
  }
}

function refusedText(scope: GatewayScope, refused: readonly RefusedHeader[]): string {
  const reserved = refused.filter((r) => r.reason === 'reserved').map((r) => r.name);
  const malformed = refused.filter((r) => r.reason !== 'reserved').map((r) => r.name);
  const parts = [
    reserved.length > 0 ? vscode.l10n.t('{0} cannot be set: Stratus sets the credential, body and connection headers itself.', reserved.join(', ')) : '',
    malformed.length > 0 ? vscode.l10n.t('{0}: not a valid header name or text value.', malformed.join(', ')) : '',
  ];
  return vscode.l10n.t('Stratus: some headers in {0} are not sent. {1}', HEADERS_SETTING[scope], parts.filter(Boolean).join(' '));
}

/**
 * Gateways: the "Set Gateway Header Secret" command (a secret header value goes to SecretStorage,
 * never settings.json) and, once per distinct problem, a warning about headers the settings ask
 * for that are refused, with an action to open the setting.
 */
export function register(deps: Deps, options: { readonly testMode: boolean }): vscode.Disposable {
  const store = new DisposableStore();
  const secrets = new GatewaySecrets(deps.secrets, deps.redactor);
  const told = new Map<GatewayScope, string>();

  const warnRefused = (): void => {
    const settings = readGatewaySettings();
    for (const scope of ['inference', 'console'] as const) {
      const refused = settings.headers[scope].refused;
      const key = refusalKey(refused);
      if (key === (told.get(scope) ?? '')) continue;
      told.set(scope, key);
      if (refused.length === 0) continue;
      deps.logger.warn(`Gateway headers refused in ${HEADERS_SETTING[scope]}: ${refused.map((r) => `${r.name} (${r.reason})`).join(', ')}`);
      const open = vscode.l10n.t('Open Setting');
      void vscode.window.showWarningMessage(refusedText(scope, refused), open).then((choice) => {
        if (choice === open) void vscode.commands.executeCommand('workbench.action.openSettings', HEADERS_SETTING[scope]);
      });
    }
  };
  // Fields of the JSON settings that are not applied: one log line each time the setting changes.
  const logIgnored = (): void => {
    const ignored = [
      ...readGatewaySettings().extraBody.ignored.map((i) => `stratus.models.extraBody ${i}`),
      ...parseCapabilityOverrides(stratusConfiguration('stratus').get<unknown>('models.overrides', {})).ignored.map((i) => `stratus.models.overrides ${i}`),
    ];
    if (ignored.length > 0) deps.logger.warn(`Settings left out: ${ignored.join('; ')}`);
  };
  // What the settings ask for that is refused or ignored: told just after activation.
  store.add(afterActivation(() => {
    warnRefused();
    logIgnored();
  }));
  store.add(vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration('stratus.inference.headers') || event.affectsConfiguration('stratus.console.headers')) warnRefused();
    if (event.affectsConfiguration('stratus.models.extraBody') || event.affectsConfiguration('stratus.models.overrides')) logIgnored();
  }));

  store.add(vscode.commands.registerCommand(SET_GATEWAY_HEADER_SECRET, async (argument?: unknown) => {
    const given = credentialArgument(argument, options.testMode, isSecretHeaderArgument);
    if (given) {
      if (problemText(given.name)) return false;
      await secrets.set(given.scope, given.name.trim(), given.value);
      return true;
    }
    const picked = await vscode.window.showQuickPick(
      [
        { label: vscode.l10n.t('Inference API'), scope: 'inference' as const },
        { label: vscode.l10n.t('Console API'), scope: 'console' as const },
      ],
      { title: vscode.l10n.t('Stratus: Set Gateway Header Secret'), placeHolder: vscode.l10n.t('Which API does the gateway header go to?') },
    );
    if (!picked) return false;
    const stored = await secrets.names(picked.scope);
    const name = await vscode.window.showInputBox({
      title: vscode.l10n.t('Stratus: Set Gateway Header Secret'),
      prompt: stored.length > 0 ? vscode.l10n.t('Header name (stored already: {0})', stored.join(', ')) : vscode.l10n.t('Header name, e.g. X-Gateway-Key'),
      ignoreFocusOut: true,
      validateInput: problemText,
    });
    if (name === undefined || problemText(name)) return false;
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('Stratus: Set Gateway Header Secret'),
      prompt: vscode.l10n.t('Value of {0}, kept in the OS secret store. Leave empty to remove it.', name.trim()),
      password: true,
      ignoreFocusOut: true,
    });
    if (value === undefined) return false;
    await secrets.set(picked.scope, name.trim(), value === '' ? undefined : value);
    deps.logger.info(`Gateway header ${name.trim()} ${value === '' ? 'removed from' : 'stored in'} secret storage (${picked.scope}).`);
    void vscode.window.showInformationMessage(value === '' ? vscode.l10n.t('Stratus: gateway header {0} removed.', name.trim()) : vscode.l10n.t('Stratus: gateway header {0} saved.', name.trim()));
    return true;
  }));
  return store;
}
