/** Shapes shared by the document (OCR) modules: pages, their images and what each page gave. */

export type DocumentFormat = 'pdf' | 'png' | 'jpeg' | 'webp' | 'tiff' | 'gif' | 'bmp';

/** How pages are read: the text layer where there is one (`auto`), or OCR for every page with an image. */
export type ExtractMode = 'auto' | 'ocrAll';

/** An image to send to the OCR model: PNG we encoded, or the file's own bytes. */
export interface PageImage {
  readonly mime: string;
  readonly bytes: Uint8Array;
  /** Pixels, when known (PNG and JPEG headers, decoded PDF images). */
  readonly width: number | undefined;
  readonly height: number | undefined;
  /** A small picture of the page for the document view (a data URI), when one could be made. */
  readonly thumbnail?: string | undefined;
}

/** What a page offers before anything is sent. */
export interface PageInfo {
  /** 1-based. */
  readonly number: number;
  /** Characters of the text layer, whitespace excluded (0 for images and scans). */
  readonly textChars: number;
  /** The page has an image OCR can read. */
  readonly hasImage: boolean;
  /** Why the page cannot be read as it is, and what to do (e.g. its image is too large to decode). */
  readonly note?: string | undefined;
}

/** How one page is to be read: `text` (its text layer, free), `ocr` (the model), `empty` (nothing to read). */
export type PageAction = 'text' | 'ocr' | 'empty';

export interface PagePlan {
  readonly number: number;
  readonly action: PageAction;
  /** Told to the person with the page's result (see PageInfo.note). */
  readonly note?: string | undefined;
}

export type PageStatus = 'queued' | 'reading' | 'done' | 'failed' | 'cancelled';

/** One page's state while a document is read, and its result once done. */
export interface PageOutcome {
  readonly number: number;
  readonly action: PageAction;
  status: PageStatus;
  /** The page's Markdown once done. */
  markdown?: string | undefined;
  /** The OCR model that read it (`ocr` pages). */
  model?: string | undefined;
  /** Why it failed, a sentence for the user. */
  reason?: string | undefined;
}

/** A document opened for reading: a PDF's pages, or an image file as one page. */
export interface DocumentSource {
  readonly format: DocumentFormat;
  readonly pageCount: number;
  /**
   * What each page offers (reads the text layer; looks for an image when the text layer is thin
   * or `lookForImage` is set, since finding one decodes it).
   */
  info(page: number, lookForImage?: boolean): Promise<PageInfo>;
  /** The page's text layer as Markdown ('' when there is none). */
  text(page: number): Promise<string>;
  /** The page's image for OCR, undefined when it has none. */
  image(page: number): Promise<PageImage | undefined>;
  close(): Promise<void>;
}
