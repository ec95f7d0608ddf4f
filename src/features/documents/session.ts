import * as vscode from 'vscode';
import type { DocumentCache } from '../../core/documents/cache';
import { documentMarkdown } from '../../core/documents/markdown';
import type { PageView } from '../../core/documents/protocol';
import { readPages, type PageReader } from '../../core/documents/run';
import type { DocumentSource, PageOutcome, PagePlan } from '../../core/documents/types';

/**
 * One document being read: its pages' outcomes and pictures, the reading itself (bounded
 * concurrency, cancellable) and Retry of a failed page. Independent of the view: the command
 * produces Markdown whether or not the view is open; the view listens to `onDidChange`.
 */
export class DocumentSession implements vscode.Disposable {
  private readonly outcomes = new Map<number, PageOutcome>();
  private readonly thumbnails = new Map<number, string>();
  private readonly changed = new vscode.EventEmitter<PageView>();
  readonly onDidChange = this.changed.event;
  private running: AbortController | undefined;
  private closed = false;

  constructor(
    readonly id: string,
    readonly uri: vscode.Uri | undefined,
    readonly fileName: string,
    readonly contentKey: string,
    private readonly source: DocumentSource,
    private readonly cache: DocumentCache,
    /** The OCR reader and model, undefined when no page needs OCR (or none is available). */
    private readonly reader: { read: PageReader; model: string } | undefined,
    private readonly concurrency: number,
  ) {}

  get pageCount(): number {
    return this.source.pageCount;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Pages in the order they were planned. */
  pages(): PageView[] {
    return [...this.outcomes.values()].sort((a, b) => a.number - b.number).map((p) => this.view(p));
  }

  page(number: number): PageView | undefined {
    const outcome = this.outcomes.get(number);
    return outcome ? this.view(outcome) : undefined;
  }

  private view(page: PageOutcome): PageView {
    return { number: page.number, action: page.action, status: page.status, markdown: page.markdown, reason: page.reason, model: page.model, thumbnail: this.thumbnails.get(page.number) };
  }

  markdown(): string {
    return documentMarkdown(this.fileName, [...this.outcomes.values()].sort((a, b) => a.number - b.number));
  }

  /** Pages already known (from the cache) are set done before reading. */
  seed(outcomes: readonly PageOutcome[]): void {
    for (const page of outcomes) {
      this.outcomes.set(page.number, { ...page });
      this.changed.fire(this.view(page));
    }
  }

  /** Reads the planned pages; resolves when every page is done, failed or cancelled. */
  async read(plan: readonly PagePlan[], signal: AbortSignal | undefined, onPage?: (page: PageOutcome) => void): Promise<PageOutcome[]> {
    if (this.running) throw new Error('This document is already being read.');
    const abort = new AbortController();
    const onAbort = (): void => abort.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) abort.abort();
    this.running = abort;
    const source = this.source;
    const thumbnails = this.thumbnails;
    // Keep each page's picture for the view as its image is read.
    const watched: DocumentSource = {

      format: source.format,
      pageCount: source.pageCount,
      info: (n, look) => source.info(n, look),
      text: (n) => source.text(n),
      close: () => source.close(),
      image: async (n) => {
        const image = await source.image(n);
        if (image?.thumbnail) thumbnails.set(n, image.thumbnail);
        return image;
      },
    };
    const read: PageReader = this.reader?.read ?? (() => Promise.reject(new Error('no OCR model is available')));
    try {
      const outcomes = await readPages({
        source: watched,
        plan,
        read,
        model: this.reader?.model ?? '',
        concurrency: this.concurrency,
        signal: abort.signal,
        onChange: (page) => {
          if (this.closed) return;
          this.outcomes.set(page.number, page);
          this.changed.fire(this.view(page));
          onPage?.(page);
        },
      });
      await this.cache.put(this.contentKey, this.fileName, this.pageCount, outcomes);
      return outcomes;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.running = undefined;
    }
  }

  /** Reads one page again (after a failure or a cancel). */
  async retry(number: number): Promise<PageView | undefined> {
    const page = this.outcomes.get(number);
    if (!page || this.running || page.status === 'done') return this.page(number);
    await this.read([{ number, action: page.action }], undefined);
    return this.page(number);
  }

  cancel(): void {
    this.running?.abort();
  }

  dispose(): void {
    this.closed = true;
    this.running?.abort();
    this.changed.dispose();
    void this.source.close().catch(() => undefined);
  }
}
