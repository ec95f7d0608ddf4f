import type { PageAction, PageStatus } from './types';

/** One page as the document view shows it. */
export interface PageView {
  readonly number: number;
  readonly action: PageAction;
  readonly status: PageStatus;
  readonly markdown?: string | undefined;
  readonly reason?: string | undefined;
  readonly model?: string | undefined;
  /** A data URI of the page's picture (scanned pages and images). */
  readonly thumbnail?: string | undefined;
}

/** Host to webview. */
export type ToWebview =
  | { type: 'document'; fileName: string; pageCount: number; pages: PageView[]; busy: boolean; note?: string | undefined }
  | { type: 'page'; page: PageView }
  | { type: 'busy'; busy: boolean };

/** Webview to host: every message is checked by parseFromWebview before anything acts on it. */
export type FromWebview =
  | { type: 'ready' }
  | { type: 'retry'; page: number }
  | { type: 'openMarkdown' }
  | { type: 'save' }
  | { type: 'cancel' };

/** A message from the webview, or undefined when it is not one of the protocol's (ignored). */
export function parseFromWebview(raw: unknown, pageCount: number): FromWebview | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  const keys = Object.keys(m);
  switch (m.type) {
    case 'ready':
    case 'openMarkdown':
    case 'save':
    case 'cancel':
      return keys.length === 1 ? { type: m.type } : undefined;
    case 'retry':
      return keys.length === 2 && Number.isSafeInteger(m.page) && (m.page as number) >= 1 && (m.page as number) <= pageCount ? { type: 'retry', page: m.page as number } : undefined;
    default:
      return undefined;
  }
}
