import { isStratusError } from '../../errors';
import type { ListPage } from '../types';

export interface PageRequestOf {
  offset: number;
  limit: number;
  /** The name filter, when one is set. */
  name: string | undefined;
  signal: AbortSignal;
}

export interface PagedListOptions<T> {
  /** Reads one page (the console client's `list`). */
  fetch: (request: PageRequestOf) => Promise<ListPage<T>>;
  idOf: (item: T) => string;
  /** Page size asked for. Default 100. */
  pageSize?: number;
  /**
   * With a name filter the server ignores (production's bare arrays), one load reads on through
   * pages without a match, up to this many pages; then "Load more…" searches further. Default 100.
   */
  maxScanPages?: number;
  /** Told after each page of a search through several pages (for a progress message). */
  onProgress?: (progress: ScanProgress) => void;
}

export interface ScanProgress {
  /** Items of the collection looked at so far (the offset reached). */
  checked: number;
  /** Pages read by this load. */
  pages: number;
  /** The load is over (found, ended, failed or superseded). */
  done: boolean;
}

export const DEFAULT_PAGE_SIZE = 100;
export const DEFAULT_MAX_SCAN_PAGES = 100;

interface Load {
  readonly generation: number;
  readonly controller: AbortController;
  readonly promise: Promise<void>;
}

/**
 * One collection as a view shows it: the pages loaded so far, the filter, the last error, and at
 * most ONE load in flight. Asking again while a load runs (an expand that repeats, "Load more…"
 * clicked twice) joins it instead of sending the same page request again; a refresh, a new filter
 * or a collapse aborts it (the AbortSignal reaches the HTTP request) and its late answer is
 * dropped. Pure: the tree (src/features/resources) wraps one per resource kind.
 */
export class PagedList<T> {
  items: T[] = [];
  total: number | undefined;
  nextOffset: number | undefined;
  partial = false;
  /** The last load's failure (a typed error); items loaded before it are kept. */
  error: unknown;
  /** A load has finished (with pages or an error) since the last reset. */
  loaded = false;
  /** Items looked at by the loads so far (the offset reached), for "N checked" messages. */
  checked = 0;
  private filterValue: string | undefined;
  private generation = 0;
  private current: Load | undefined;
  private readonly pageSize: number;
  private readonly maxScanPages: number;

  constructor(private readonly options: PagedListOptions<T>) {
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.maxScanPages = Math.max(1, options.maxScanPages ?? DEFAULT_MAX_SCAN_PAGES);
  }

  get filter(): string | undefined {
    return this.filterValue;
  }

  /** A load is in flight. */
  get loading(): boolean {
    return this.current !== undefined;
  }

  /** The first page, unless loaded; joins a load in flight. */
  ensureLoaded(): Promise<void> {
    if (this.current) return this.current.promise;
    if (this.loaded) return Promise.resolve();
    return this.start(0);
  }

  /** Resolves once no load is in flight: a load that replaced the one awaited (a refresh) is awaited too. */
  async idle(): Promise<void> {
    while (this.current) await this.current.promise;
  }

  /** The next page(s); joins a load in flight rather than asking for the same page twice. */
  loadMore(): Promise<void> {
    if (this.current) return this.current.promise;
    if (this.nextOffset === undefined) return Promise.resolve();
    return this.start(this.nextOffset);
  }

  /** Aborts the load in flight and starts over from the first page, keeping the filter. */
  refresh(): Promise<void> {
    this.reset();
    return this.start(0);
  }

  /** Sets (or clears, with undefined/blank) the name filter and reloads from the first page. */
  setFilter(filter: string | undefined): Promise<void> {
    this.filterValue = filter?.trim() ? filter.trim() : undefined;
    return this.refresh();
  }

  /**
   * Forgets the pages and aborts the load in flight, without loading (the next ensureLoaded()
   * does). The filter is kept.
   */
  reset(): void {
    this.abortCurrent();
    this.items = [];
    this.total = undefined;
    this.nextOffset = undefined;
    this.partial = false;
    this.error = undefined;
    this.loaded = false;
    this.checked = 0;
  }

  /**
   * Aborts the load in flight (the collection was collapsed): what it had not loaded yet is asked
   * for again on the next expand or "Load more…".
   */
  cancel(): void {
    this.abortCurrent();
  }

  /** Puts an item first (new) or replaces it in place (changed). */
  upsert(item: T): void {
    const id = this.options.idOf(item);
    const at = this.items.findIndex((i) => this.options.idOf(i) === id);
    if (at >= 0) {
      this.items[at] = item;
      return;
    }
    this.items.unshift(item);
    if (this.total !== undefined) this.total += 1;
    // Not marked loaded: a collection never expanded still loads its first page when it is.
  }

  remove(id: string): boolean {
    const before = this.items.length;
    this.items = this.items.filter((i) => this.options.idOf(i) !== id);
    const removed = this.items.length < before;
    if (removed && this.total !== undefined) this.total -= 1;
    return removed;
  }

  private abortCurrent(): void {
    const current = this.current;
    this.generation++;
    this.current = undefined;
    current?.controller.abort();
  }

  private start(offset: number): Promise<void> {
    const generation = ++this.generation;
    const controller = new AbortController();
    const promise = this.run(offset, generation, controller.signal).finally(() => {
      if (this.current?.generation === generation) this.current = undefined;
    });
    this.current = { generation, controller, promise };
    return promise;
  }

  private async run(start: number, generation: number, signal: AbortSignal): Promise<void> {
    const superseded = (): boolean => generation !== this.generation;
    const filter = this.filterValue;
    let offset = start;
    let pages = 0;
    let found = 0;
    let reported = false;
    const report = (done: boolean): void => {
      // Progress is for a search through several pages; its end is told whatever ended it.
      if (filter === undefined || (!reported && (done || pages < 2))) return;
      reported = true;
      this.options.onProgress?.({ checked: this.checked, pages, done });
    };
    try {
      for (;;) {
        const page = await this.options.fetch({ offset, limit: this.pageSize, name: filter, signal });
        if (superseded()) return;
        pages++;
        // Items put in meanwhile (a created resource, upserted) are not listed twice.
        const known = new Set(this.items.map((i) => this.options.idOf(i)));
        const fresh = page.items.filter((item) => {
          const id = this.options.idOf(item);
          if (known.has(id)) return false;
          known.add(id);
          return true;
        });
        this.items.push(...fresh);
        found += fresh.length;
        this.total = page.total;
        this.partial = page.partial;
        this.error = undefined;
        this.loaded = true;
        // A server that ignores `offset` sends the same items again: that is the end, not a loop.
        const repeated = page.items.length > 0 && fresh.length === 0 && page.filteredHere !== true;
        const next = repeated || page.nextOffset === undefined || page.nextOffset <= offset ? undefined : page.nextOffset;
        this.nextOffset = next;
        if (next !== undefined) this.checked = Math.max(this.checked, next);
        // Only a filter the server did not apply can leave a page empty while later ones match.
        const searchOn = filter !== undefined && page.filteredHere === true && found === 0 && next !== undefined && pages < this.maxScanPages;
        if (!searchOn) break;
        report(false);
        offset = next;
      }
    } catch (error) {
      if (superseded()) return;
      if (isStratusError(error) && error.kind === 'cancelled') return;
      this.error = error;
      this.loaded = true;
    } finally {
      report(true);
    }
  }
}
