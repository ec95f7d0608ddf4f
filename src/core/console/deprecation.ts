import type { Logger } from '../log';
import { joinedHeader } from '../http/headers';
import type { ResponseHeaders } from '../http/types';
import type { DeprecationNotice } from './types';

/** The `rel="successor-version"` target of a Link header, else `rel="deprecation"`, else the first. */
export function linkTarget(link: string | undefined): string | undefined {
  if (!link) return undefined;
  const entries = [...link.matchAll(/<([^>]*)>([^,<]*)/g)].map((m) => ({ url: m[1] ?? '', params: m[2] ?? '' }));
  const byRel = (rel: string): string | undefined =>
    entries.find((e) => new RegExp(`rel="?[^"]*\\b${rel}\\b`, 'i').test(e.params))?.url;
  return byRel('successor-version') ?? byRel('deprecation') ?? entries[0]?.url ?? link;
}

/**
 * Watches responses for `Deprecation` / `Sunset` headers (RFC 9745 / RFC 8594) and reports each
 * endpoint once per client, so a deprecated list expanded a hundred times warns once.
 */
export class DeprecationWatcher {
  private readonly seen = new Set<string>();

  constructor(
    private readonly logger: Logger,
    private readonly onDeprecation: ((notice: DeprecationNotice) => void) | undefined,
  ) {}

  check(endpoint: { method: string; path: string }, headers: ResponseHeaders): void {
    const deprecation = joinedHeader(headers, 'deprecation');
    const sunset = joinedHeader(headers, 'sunset');
    if (deprecation === undefined && sunset === undefined) return;
    const key = `${endpoint.method} ${endpoint.path}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const notice: DeprecationNotice = {
      method: endpoint.method,
      path: endpoint.path,
      deprecation,
      sunset,
      link: linkTarget(joinedHeader(headers, 'link')),
    };
    this.logger.warn(
      `Console endpoint ${key} is deprecated` +
        `${sunset ? `; removal (Sunset) ${sunset}` : ''}${notice.link ? `; replacement: ${notice.link}` : ''}`,
    );
    try {
      this.onDeprecation?.(notice);
    } catch (error) {
      this.logger.warn(`onDeprecation listener failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
