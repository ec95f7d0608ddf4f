import { createHash } from 'node:crypto';
import { abortable } from '../../abortable';
import { AuthError, isStratusError } from '../../errors';
import type { SecretProvider } from '../../http/types';
import type { Logger } from '../../log';
import type { SessionEvent, SessionInfo, Disposable } from '../types';
import { PAT_NAME, type PatPair, decodeClaims, tokenTimes, type TokenTimes } from './accessToken';

/** Where the PAT lives (SecretStorage behind the platform layer); read on every exchange. */
export interface PatProviders {
  id: SecretProvider;
  secret: SecretProvider;
}

export interface ConsoleAuthOptions {
  pat: PatProviders;
  /** Exchanges a PAT for an access token (accessToken.ts over the console transport). */
  exchange: (pat: PatPair) => Promise<string>;
  logger: Logger;
  /** Refresh this long before `exp` (capped at half the token's lifetime). Default 30 s. */
  refreshMarginMs?: number;
  now?: () => number;
  /** Registers the PAT's id and secret with the redactor as soon as they are read. */
  registerSecret?: (secret: string) => void;
  /** Registers each access token received with the redactor (a rotating slot). */
  registerToken?: (jwt: string) => void;
}

interface CachedToken {
  jwt: string;
  times: TokenTimes;
  session: SessionInfo;
}

// Failures of a refresh that leave a still-valid token usable.
const TRANSIENT = new Set(['network', 'timeout', 'api', 'rate_limit', 'malformed_response']);

function fingerprint(pat: PatPair): string {
  return createHash('sha256').update(pat.id).update('\0').update(pat.secret).digest('hex');
}

/**
 * PAT -> JWT: the JWT lives in memory only, is refreshed from its `exp` on first use after the
 * refresh point (no timers), and concurrent callers share one exchange. A PAT the server rejected
 * is remembered (by hash) so it is not sent again until it changes or `signIn()` is called.
 */
export class ConsoleAuth {
  private cached: CachedToken | undefined;
  private inflight: Promise<CachedToken> | undefined;
  private rejected: { fingerprint: string; error: AuthError } | undefined;
  /** `tenant|user|company` of the signed-in session; undefined when signed out. */
  private identity: string | undefined;
  private currentSession: SessionInfo | undefined;
  private generation = 0;
  private readonly events: Emitter<SessionEvent>;
  private readonly now: () => number;
  private readonly marginMs: number;

  constructor(private readonly options: ConsoleAuthOptions) {
    this.events = new Emitter(options.logger);
    this.now = options.now ?? Date.now;
    this.marginMs = options.refreshMarginMs ?? 30_000;
  }

  /** Who is signed in, while signed in (the token itself may be due for a refresh). */
  get session(): SessionInfo | undefined {
    return this.currentSession;
  }

  onDidChangeSession(listener: (event: SessionEvent) => void): Disposable {
    return this.events.on(listener);
  }

  /** A valid access token, exchanging the PAT when there is none or it is due for refresh. */
  async token(signal?: AbortSignal): Promise<string> {
    const cached = this.cached;
    if (cached && this.now() < cached.times.refreshAt) return cached.jwt;
    try {
      return (await abortable(this.refresh(), signal)).jwt;
    } catch (error) {
      const usable = cached !== undefined && this.cached === cached && this.now() < cached.times.expiresAt;
      if (usable && isStratusError(error) && TRANSIENT.has(error.kind)) {
        this.options.logger.warn(`Could not refresh the console access token (${error.kind}); using the current one`);
        return cached.jwt;
      }
      throw error;
    }
  }

  /** Signs in now with the stored PAT (also after a rejection), replacing any current token. */
  async signIn(signal?: AbortSignal): Promise<SessionInfo> {
    // An exchange already running may be using the PAT being replaced: let it finish first.
    if (this.inflight) await abortable(this.inflight.catch(() => undefined), signal);
    this.cached = undefined;
    this.rejected = undefined;
    return (await abortable(this.refresh(), signal)).session;
  }

  /** Forgets the token (memory only; the caller deletes the stored PAT). */
  signOut(): void {
    this.generation++;
    this.cached = undefined;
    this.rejected = undefined;
    this.markSignedOut('signOut');
  }

  /** After a 401: drop the token that request sent (not a newer one), so the retry exchanges again. */
  invalidate(token: string | undefined): void {
    if (token === undefined || this.cached?.jwt === token) this.cached = undefined;
  }

  private refresh(): Promise<CachedToken> {
    this.inflight ??= this.exchange().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async exchange(): Promise<CachedToken> {
    const generation = this.generation;
    const pat = await this.readPat();
    const print = fingerprint(pat);
    if (this.rejected?.fingerprint === print) throw this.rejected.error;
    this.rejected = undefined;
    let jwt: string;
    try {
      jwt = await this.options.exchange(pat);
    } catch (error) {
      if (error instanceof AuthError && error.reason === 'rejected' && generation === this.generation) {
        this.rejected = { fingerprint: print, error };
        this.cached = undefined;
        this.markSignedOut('rejected');
      }
      throw error;
    }
    this.options.registerToken?.(jwt);
    if (generation !== this.generation) {
      throw new AuthError('Signed out of the console', { reason: 'missing', secretName: PAT_NAME });
    }
    return this.accept(jwt);
  }

  private accept(jwt: string): CachedToken {
    const claims = decodeClaims(jwt);
    if (!claims?.exp) this.options.logger.warn('The console access token has no readable exp claim; assuming 5 minutes');
    const times = tokenTimes(claims, this.now(), this.marginMs);
    const session: SessionInfo = {
      tenantId: claims?.tenantId,
      userId: claims?.userId,
      companyId: claims?.companyId,
      expiresAt: new Date(times.expiresAt),
    };
    const identity = `${session.tenantId ?? ''}|${session.userId ?? ''}|${session.companyId ?? ''}`;
    const type = this.identity === identity ? 'refreshed' : 'signedIn';
    this.cached = { jwt, times, session };
    this.currentSession = session;
    this.identity = identity;
    const until = session.expiresAt.toISOString();
    this.options.logger.info(
      type === 'signedIn'
        ? `Signed in to the console (tenant ${session.tenantId ?? 'unknown'}); token valid until ${until}`
        : `Console access token refreshed; valid until ${until}`,
    );
    this.events.fire({ type, session });
    return this.cached;
  }

  private async readPat(): Promise<PatPair> {
    let id: string | undefined;
    let secret: string | undefined;
    try {
      [id, secret] = await Promise.all([this.options.pat.id(), this.options.pat.secret()]);
    } catch {
      throw new AuthError(`Could not read the ${PAT_NAME}`, { reason: 'missing', secretName: PAT_NAME });
    }
    id = id?.trim();
    secret = secret?.trim();
    if (!id || !secret) {
      this.cached = undefined;
      this.markSignedOut('missing');
      throw new AuthError(`Not signed in to the console: no ${PAT_NAME} is stored`, {
        reason: 'missing',
        secretName: PAT_NAME,
      });
    }
    // Where the core receives them: whoever stores the PAT, an echo of it is redacted.
    this.options.registerSecret?.(id);
    this.options.registerSecret?.(secret);
    return { id, secret };
  }

  private markSignedOut(reason: 'signOut' | 'rejected' | 'missing'): void {
    if (this.identity === undefined) return;
    this.identity = undefined;
    this.currentSession = undefined;
    this.options.logger.info(`Signed out of the console (${reason})`);
    this.events.fire({ type: 'signedOut', reason });
  }
}

/** A minimal typed event source; a throwing listener is logged and never stops the others. */
export class Emitter<T> {
  private readonly listeners = new Set<(event: T) => void>();

  constructor(private readonly logger: Logger) {}

  on(listener: (event: T) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  fire(event: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.logger.warn(`A session listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
