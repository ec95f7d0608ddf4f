import * as path from 'node:path';
import type { PdfJs } from '../../core/documents/pdf';

let loading: Promise<PdfJs> | undefined;

/**
 * pdf.js, loaded the first time a PDF is read: dist/pdfjs.js (bundled apart by scripts/build.mjs)
 * next to dist/extension.js. Activation never loads it.
 */
export function loadPdfJs(): Promise<PdfJs> {
  loading ??= new Promise<PdfJs>((resolve, reject) => {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a computed path, loaded on first use on purpose.
      resolve(require(path.join(__dirname, 'pdfjs.js')) as PdfJs);
    } catch (error) {
      loading = undefined;
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
  return loading;
}
