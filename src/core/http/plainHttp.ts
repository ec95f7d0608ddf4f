import { ValidationError } from '../errors';

const LOOPBACK_NAMES = new Set(['localhost', '[::1]', '::1']);

/** True when `url` would carry data unencrypted beyond this machine (plain http, not loopback). */
export function isPlainHttpToRemoteHost(url: URL): boolean {
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.toLowerCase();
  if (LOOPBACK_NAMES.has(host) || host.endsWith('.localhost')) return false;
  return !/^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Asks the user whether a secret may go to `origin` over plain http; true lets it through. */
export type PlainHttpPrompt = (origin: string, secretName: string) => Promise<boolean>;

/**
 * Before a secret first goes over plain http to a remote host, asks once per origin (an answer of
 * yes is remembered; a no is asked again next time). Declining fails the request before anything
 * is sent, with an error pointing at the base URL setting.
 */
export class PlainHttpGate {
  private readonly allowed = new Set<string>();
  private readonly pending = new Map<string, Promise<boolean>>();

  constructor(
    private readonly prompt: PlainHttpPrompt,
    remembered: Iterable<string> = [],
    private readonly onAllowed: (origin: string) => void = () => undefined,
  ) {
    for (const origin of remembered) this.allowed.add(origin);
  }

  async check(url: URL, secretName: string, param: string): Promise<void> {
    if (!isPlainHttpToRemoteHost(url) || this.allowed.has(url.origin)) return;
    // Concurrent requests to the same origin share one question.
    let answer = this.pending.get(url.origin);
    if (!answer) {
      answer = this.prompt(url.origin, secretName).finally(() => this.pending.delete(url.origin));
      this.pending.set(url.origin, answer);
    }
    if (await answer) {
      if (!this.allowed.has(url.origin)) {
        this.allowed.add(url.origin);
        this.onAllowed(url.origin);
      }
      return;
    }
    throw new ValidationError(
      `Refused to send the ${secretName} unencrypted to ${url.origin}: use an https:// address (${param})`,
      param,
    );
  }
}
