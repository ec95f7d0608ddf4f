import { DocumentError } from './errors';
import { sniffFormat } from './image';
import { imageDocument } from './imageFile';
import { openPdf, type PdfJs } from './pdf';
import type { DocumentSource } from './types';

/**
 * Opens a file's bytes as a document by what they are (not by the file name): a PDF through
 * pdf.js (loaded only now), an image as one page. Anything else is one clear refusal.
 */
export async function openDocument(bytes: Uint8Array, fileName: string, loadPdfJs: () => Promise<PdfJs>, maxModelLen: number | undefined): Promise<DocumentSource> {
  const format = sniffFormat(bytes);
  if (format === undefined) {
    throw new DocumentError('unsupported', `${fileName} is not a PDF or an image Stratus can read (PDF, PNG, JPEG, WebP, TIFF, GIF, BMP).`);
  }
  if (format === 'pdf') return openPdf(await loadPdfJs(), bytes, fileName, maxModelLen);
  return imageDocument(bytes, format, fileName);
}
