import type { Clock } from '../core/clock';
import type { ConsoleRateLimits } from '../types';

export const DEFAULT_CONSOLE_LIMITS: ConsoleRateLimits = { perModule: 25, auth: 5 };
export const AUTH_PATH = '/api/iam/v2/auth/personal_access_token';

/** The limit bucket of a console path: the PAT exchange route, or the module (`/api/v1` = console). */
export function bucketOf(path: string): { bucket: string; kind: 'auth' | 'module' } {
  if (path === AUTH_PATH) return { bucket: 'auth', kind: 'auth' };
  const segment = path.split('/')[2] ?? '';
  return { bucket: /^v\d+$/.test(segment) || segment === '' ? 'console' : segment, kind: 'module' };
}

/**
 * Per-source-IP limits in requests per second over a sliding 1 s window (sandbox clock). Only
 * successful (2xx) responses are counted, as the contract says failed requests do not count.
 */
export class ConsoleRateLimiter {
  private hits = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    public limits: ConsoleRateLimits | false,
  ) {}

  private recent(key: string): number[] {
    const now = this.clock.now();
    const list = (this.hits.get(key) ?? []).filter((t) => now - t < 1000);
    if (list.length === 0) this.hits.delete(key);
    else this.hits.set(key, list);
    return list;
  }

  limited(ip: string, path: string): boolean {
    if (this.limits === false) return false;
    const { bucket, kind } = bucketOf(path);
    const limit = kind === 'auth' ? this.limits.auth : this.limits.perModule;
    return this.recent(`${ip}|${bucket}`).length >= limit;
  }

  /**
   * Counts a request when it is admitted (so concurrent requests cannot all slip under the limit)
   * and returns an undo for when it turns out not to be successful.
   */
  record(ip: string, path: string): () => void {
    if (this.limits === false) return () => undefined;
    const key = `${ip}|${bucketOf(path).bucket}`;
    const list = this.recent(key);
    const at = this.clock.now();
    list.push(at);
    this.hits.set(key, list);
    return () => {
      const current = this.hits.get(key);
      const index = current?.indexOf(at) ?? -1;
      if (current && index >= 0) current.splice(index, 1);
    };
  }

  reset(limits: ConsoleRateLimits | false): void {
    this.limits = limits;
    this.hits.clear();
  }
}
