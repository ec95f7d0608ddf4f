import { DocumentError } from './errors';
import { downscale, pixelsFromPdfJs } from './image';
import { declaredImageSizes, MAX_IMAGE_PIXELS, oversizedImageNote, oversizedImages } from './imageLimits';
import { fitImage } from './ocrRequest';
import { encodePng } from './png';
import { MIN_TEXT_CHARS } from './plan';
import { textLayerMarkdown, visibleChars, type TextRun } from './textLayer';
import type { DocumentSource, PageImage, PageInfo } from './types';

/**
 * The part of pdf.js used here (the legacy build, run in the extension host without canvas):
 * the text layer (getTextContent) and the decoded images a page paints (getOperatorList + objs).
 * Nothing is rendered: a scan's page is its image.
 */
export interface PdfJsImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}
interface PdfJsObjects {
  get(id: string, callback: (data: unknown) => void): void;
}
interface PdfJsPage {
  getTextContent(): Promise<{ items: unknown[] }>;
  getOperatorList(): Promise<{ fnArray: number[]; argsArray: unknown[][] }>;
  readonly objs: PdfJsObjects;
  readonly commonObjs: PdfJsObjects;
  cleanup(): boolean | void;
}
interface PdfJsDocument {
  readonly numPages: number;
  getPage(n: number): Promise<PdfJsPage>;
}
export interface PdfJs {
  getDocument(source: Record<string, unknown>): { promise: Promise<PdfJsDocument>; destroy(): Promise<void> };
  readonly OPS: Readonly<Record<string, number>>;
}

function objectData(page: PdfJsPage, id: string): Promise<unknown> {
  const objs = id.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => objs.get(id, resolve));
}

function asImage(value: unknown): PdfJsImage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Partial<PdfJsImage>;
  return typeof v.width === 'number' && typeof v.height === 'number' ? (v as PdfJsImage) : undefined;
}

function isTextRun(item: unknown): item is TextRun {
  return typeof item === 'object' && item !== null && typeof (item as { str?: unknown }).str === 'string';
}

/** The largest image a page paints (a scan is one image per page), or undefined. */
async function largestImage(pdfjs: PdfJs, page: PdfJsPage): Promise<PdfJsImage | undefined> {
  const ops = await page.getOperatorList();
  let best: PdfJsImage | undefined;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i] ?? [];
    let image: PdfJsImage | undefined;
    if (fn === pdfjs.OPS.paintImageXObject && typeof args[0] === 'string') image = asImage(await objectData(page, args[0]));
    else if (fn === pdfjs.OPS.paintInlineImageXObject) image = asImage(args[0]);
    if (image && (!best || image.width * image.height > best.width * best.height)) best = image;
  }
  return best;
}

/** Width of the document view's page thumbnails, pixels. */
export const THUMBNAIL_WIDTH = 160;

/** A tiny image (a logo, a rule) is decoration, not a page to read. */
const MIN_IMAGE_PIXELS = 64 * 64;

/** Opens a PDF; a file pdf.js cannot parse (or one with a password) is one clear DocumentError. */
export async function openPdf(pdfjs: PdfJs, bytes: Uint8Array, fileName: string, maxModelLen: number | undefined): Promise<DocumentSource> {
  // pdf.js takes ownership of (transfers) the buffer it is given: hand it a copy.
  // Images over the limit are refused by pdf.js before they are decoded (bounded planning); their
  // declared sizes, read from the bytes first, let a page that shows nothing say why.
  const oversized = oversizedImages(declaredImageSizes(bytes));
  const task = pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false, maxImageSize: MAX_IMAGE_PIXELS });
  let doc: PdfJsDocument;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    const name = (error as { name?: unknown } | null)?.name;
    if (name === 'PasswordException') throw new DocumentError('encrypted', `${fileName} is protected by a password; open it, save a copy without the password, and read that.`, { cause: error });
    const detail = error instanceof Error ? error.message : String(error);
    throw new DocumentError('corrupt', `${fileName} is not a readable PDF (${detail}). Check that the file is complete, or export it again.`, { cause: error });
  }
  if (doc.numPages < 1) {
    await task.destroy();
    throw new DocumentError('empty', `${fileName} has no pages.`);
  }
  const runsCache = new Map<number, TextRun[]>();
  const runs = async (n: number): Promise<TextRun[]> => {
    const cached = runsCache.get(n);
    if (cached) return cached;
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    const items = content.items.filter(isTextRun);
    runsCache.set(n, items);
    return items;
  };
  return {
    format: 'pdf',
    pageCount: doc.numPages,
    async info(n, lookForImage = false): Promise<PageInfo> {
      const textChars = visibleChars(await runs(n));
      if (textChars >= MIN_TEXT_CHARS && !lookForImage) return { number: n, textChars, hasImage: false };
      const page = await doc.getPage(n);
      const image = await largestImage(pdfjs, page);
      page.cleanup();
      const hasImage = image !== undefined && image.width * image.height >= MIN_IMAGE_PIXELS;
      const note = !hasImage && textChars < MIN_TEXT_CHARS && oversized.length > 0 ? oversizedImageNote(n, oversized) : undefined;
      return { number: n, textChars, hasImage, ...(note ? { note } : {}) };
    },
    async text(n) {
      const markdown = textLayerMarkdown(await runs(n));
      runsCache.delete(n);
      return markdown;
    },
    async image(n): Promise<PageImage | undefined> {
      const page = await doc.getPage(n);
      try {
        const found = await largestImage(pdfjs, page);
        const pixels = found && found.width * found.height >= MIN_IMAGE_PIXELS ? pixelsFromPdfJs(found) : undefined;
        if (!pixels) return undefined;
        const size = fitImage(pixels.width, pixels.height, maxModelLen);
        const fitted = downscale(pixels, size.width, size.height);
        const thumbnail = `data:image/png;base64,${Buffer.from(encodePng(downscale(fitted, THUMBNAIL_WIDTH, THUMBNAIL_WIDTH * 2))).toString('base64')}`;
        return { mime: 'image/png', bytes: encodePng(fitted), width: fitted.width, height: fitted.height, thumbnail };
      } finally {
        page.cleanup();
      }
    },
    async close() {
      await task.destroy();
    },
  };
}
