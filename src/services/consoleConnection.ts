import * as vscode from 'vscode';
import { createConsoleClient, createConsoleRateLimiter, InMemoryPathMemory, type ConsoleClient, type PathMemory } from '../core/console';
import type { DeprecationNotice, SessionInfo } from '../core/console/types';
import { isStratusError } from '../core/errors';
import type { Logger } from '../core/log';
import { presentError } from '../core/presentError';
import { networkKey, networkOptions, type SharedNetwork } from '../platform/networkOptions';
import { SecretKeys, type SecretStore } from '../platform/secrets';
import { onSettingsChanged, readSettings } from '../platform/settings';
import { Redactor } from '../core/http/redact';
import { GatewaySecrets } from '../platform/gatewaySecrets';
import { gatewayHeaders } from './gatewayHeaders';

export type ConsoleState =
  | { kind: 'notConfigured' }
  | { kind: 'signedOut' }
  | { kind: 'signingIn' }
  | { kind: 'signedIn'; session: SessionInfo }
  /** The PAT was refused: no automatic retry until the user signs in again. */
  | { kind: 'rejected'; message: string }
  | { kind: 'error'; message: string };

/**
 * Owns the console client built from settings and the stored PAT, and the sign-in state the views
 * show. Token refreshes happen inside the client and never change this state: trees do not reload.
 */
export class ConsoleConnection implements vscode.Disposable {
  private current: { client: ConsoleClient; key: string } | undefined;
  private stateValue: ConsoleState = { kind: 'signedOut' };
  private readonly emitter = new vscode.EventEmitter<ConsoleState>();
  private readonly warned = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  // The server counts requests per source IP: one limiter for every client this window builds.
  private readonly rateLimiter = createConsoleRateLimiter();
  private signInRun = 0;
  /** The PAT the last sign-in used, so a change event for the same PAT does not sign in twice. */
  private lastPat: string | undefined;
  private resumeTimer: NodeJS.Timeout | undefined;
  readonly onDidChangeState = this.emitter.event;
  private readonly gatewaySecrets: GatewaySecrets;

  constructor(
    private readonly secrets: SecretStore,
    private readonly logger: Logger,
    private readonly network?: SharedNetwork,
    /** Which paths answered per console base URL: kept across client rebuilds (and windows, when persisted). */
    private readonly pathMemory: PathMemory = new InMemoryPathMemory(),
  ) {
    this.gatewaySecrets = new GatewaySecrets(secrets, network?.redactor ?? new Redactor());
    this.subscriptions.push(
      this.emitter,
      secrets.onDidChange((key) => {
        // The id and the secret change one after the other: react once to the pair.
        if (key !== SecretKeys.patId && key !== SecretKeys.patSecret) return;
        if (this.resumeTimer) clearTimeout(this.resumeTimer);
        this.resumeTimer = setTimeout(() => void this.resumeIfChanged(), 150);
      }),
      onSettingsChanged((settings) => {
        if (this.current && this.current.key !== this.keyOf(settings)) void this.resume();
      }),
    );
  }

  get state(): ConsoleState {
    return this.stateValue;
  }

  /** The tenant of the current session, for the views' description. */
  get session(): SessionInfo | undefined {
    return this.stateValue.kind === 'signedIn' ? this.current?.client.auth.session ?? this.stateValue.session : undefined;
  }

  client(): ConsoleClient {
    const settings = readSettings();
    const key = this.keyOf(settings);
    if (this.current?.key !== key) {
      void this.current?.client.close();
      this.current = {
        key,
        client: createConsoleClient({
          ...networkOptions(settings, this.network),
          // The JWT rotates every few minutes: the redactor tracks only the current one.
          tokenSlot: 'consoleJwt',
          gatewayHeaders: () => gatewayHeaders('console', this.gatewaySecrets),
          baseUrl: settings.consoleBaseUrl,
          logger: this.logger,
          resourcePaths: settings.resourcePaths,
          pathMemory: this.pathMemory,
          rateLimiter: this.rateLimiter,
          pat: { id: () => this.secrets.get(SecretKeys.patId), secret: () => this.secrets.get(SecretKeys.patSecret) },
          onDeprecation: (notice) => this.warnDeprecated(notice),
        }),
      };
    }
    return this.current.client;
  }

  /** Signs in if a PAT is stored (at start-up, after a change in this or another window, after a settings change). */
  async resume(): Promise<ConsoleState> {
    const [id, secret] = await Promise.all([this.secrets.get(SecretKeys.patId), this.secrets.get(SecretKeys.patSecret)]);
    if (!readSettings().consoleBaseUrl) return this.settle({ kind: 'notConfigured' });
    if (id === undefined || secret === undefined) {
      this.current?.client.auth.signOut();
      return this.settle({ kind: 'signedOut' });
    }
    return this.signIn();
  }

  /**
   * What every consumer (the views, the chat's cloud tools, the commands) calls before using the
   * console: signs in from the stored PAT on first use, whoever asks first. Single-flight: callers
   * that ask while a sign-in runs share it. A PAT the console rejected is not sent again on its own
   * (the user signs in again, or the stored PAT changes); after an error (network, 5xx) the next
   * use tries again.
   */
  ensureSignedIn(): Promise<ConsoleState> {
    const state = this.stateValue;
    if (state.kind === 'signedIn' || state.kind === 'rejected') return Promise.resolve(state);
    if (state.kind === 'signingIn' && this.latest) return this.latest;
    this.starting ??= this.resume().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private starting: Promise<ConsoleState> | undefined;

  /** A PAT already tried (signed in, or rejected) is not sent again on its own: no sign-in loops. */
  private async resumeIfChanged(): Promise<void> {
    const pat = await this.storedPat();
    if (pat !== undefined && pat === this.lastPat) return;
    await this.resume();
  }

  private async storedPat(): Promise<string | undefined> {
    const [id, secret] = await Promise.all([this.secrets.get(SecretKeys.patId), this.secrets.get(SecretKeys.patSecret)]);
    return id === undefined || secret === undefined ? undefined : `${id}\n${secret}`;
  }

  /** Exchanges the stored PAT now. A newer call supersedes an older one; both resolve with the newer outcome. */
  signIn(): Promise<ConsoleState> {
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    const run = ++this.signInRun;
    this.latest = this.exchange(run);
    return this.latest;
  }

  private latest: Promise<ConsoleState> | undefined;

  private async exchange(run: number): Promise<ConsoleState> {
    const superseded = (): Promise<ConsoleState> | undefined => (run !== this.signInRun ? this.latest : undefined);
    this.lastPat = await this.storedPat();
    this.setState({ kind: 'signingIn' });
    try {
      const client = this.client();
      client.auth.signOut();
      const session = await client.auth.signIn();
      const newer = superseded();
      if (newer) return newer;
      this.logger.info(`Signed in to the console: tenant ${session.tenantId ?? 'unknown'}.`);
      return this.setState({ kind: 'signedIn', session });
    } catch (error) {
      const newer = superseded();
      if (newer) return newer;
      const presented = presentError(error);
      this.logger.warn(`Console sign-in failed: ${presented.message}`);
      const rejected = isStratusError(error) && (error.kind === 'auth' || error.kind === 'forbidden');
      return this.setState(rejected
        ? { kind: 'rejected', message: vscode.l10n.t('The personal access token was rejected. Check its ID and secret, or create a new one in the console.') }
        : { kind: 'error', message: presented.message });
    }
  }

  signOut(): void {
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.lastPat = undefined;
    this.current?.client.auth.signOut();
    this.settle({ kind: 'signedOut' });
  }

  /** Ends any sign-in in flight with `state` (its callers resolve with it too). */
  private settle(state: ConsoleState): ConsoleState {
    this.signInRun++;
    this.latest = Promise.resolve(state);
    return this.setState(state);
  }

  private keyOf(settings: ReturnType<typeof readSettings>): string {
    return `${settings.consoleBaseUrl} ${JSON.stringify(settings.resourcePaths)} ${networkKey(settings)}`;
  }

  private setState(state: ConsoleState): ConsoleState {
    this.stateValue = state;
    this.emitter.fire(state);
    return state;
  }

  /** One warning per endpoint per session (across client rebuilds), shown to the user. */
  private warnDeprecated(notice: DeprecationNotice): void {
    const key = `${notice.method} ${notice.path}`;
    if (this.warned.has(key)) return;
    this.warned.add(key);
    const message = notice.sunset
      ? vscode.l10n.t('The console endpoint {0} is deprecated. It will be removed on {1}. Stratus may need an update, or a path override in stratus.console.resourcePaths.', key, notice.sunset)
      : vscode.l10n.t('The console endpoint {0} is deprecated. Stratus may need an update, or a path override in stratus.console.resourcePaths.', key);
    // The console client has logged it already; here it is shown.
    void vscode.window.showWarningMessage(`Stratus: ${message}`, vscode.l10n.t('Show Endpoints in Use')).then((choice) => {
      if (choice) void vscode.commands.executeCommand('stratus.showConsoleEndpoints');
    });
  }

  dispose(): void {
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    void this.current?.client.close();
    for (const d of this.subscriptions) d.dispose();
  }
}
