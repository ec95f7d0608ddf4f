import { PDFDocument, StandardFonts } from 'pdf-lib';
import { deflateSync } from 'node:zlib';
import { encodePng, type Pixels } from '../../../src/core/documents/png';

/**
 * Documents drawn by the tests: PDFs with a text layer (pdf-lib, Helvetica), PDFs made of page
 * images (PNG pages embedded losslessly), and PNGs whose text the sandbox's OCR model reads from
 * a marker in their pixels (test/sandbox/inference/ocr.ts). Each image also carries a drawing of
 * text lines and a table, so the document view and its screenshot show a page.
 */

export interface ScanPage {
  /** The Markdown the sandbox's OCR model answers for this page. */
  readonly markdown: string;
  /** `!fault` lines: e.g. `{ status: 429, times: 1, retryAfter: 1 }`. */
  readonly faults?: ReadonlyArray<{ status: number; times: number; retryAfter?: number }>;
  /** Makes the image unique (the sandbox counts faults per image). */
  readonly nonce?: string;
}

export const SCAN_WIDTH = 480;
export const SCAN_HEIGHT = 640;

function fill(p: Uint8Array, x0: number, y0: number, w: number, h: number, shade: number): void {
  for (let y = y0; y < y0 + h && y < SCAN_HEIGHT; y++) for (let x = x0; x < x0 + w && x < SCAN_WIDTH; x++) p.fill(shade, (y * SCAN_WIDTH + x) * 3, (y * SCAN_WIDTH + x) * 3 + 3);
}

/** A scanned page: white, lines of "text" and a table grid, the marker in the top rows. */
export function scanPixels(page: ScanPage): Pixels {
  const data = new Uint8Array(SCAN_WIDTH * SCAN_HEIGHT * 3).fill(255);
  for (let line = 0; line < 8; line++) fill(data, 40, 60 + line * 22, 280 + ((line * 53) % 120), 9, 40);
  for (let row = 0; row <= 4; row++) fill(data, 40, 260 + row * 40, 400, 2, 60);
  for (let col = 0; col <= 3; col++) fill(data, 40 + col * 133, 260, 2, 160, 60);
  for (let row = 0; row < 4; row++) for (let col = 0; col < 3; col++) fill(data, 52 + col * 133, 276 + row * 40, 60 + ((row + col) % 3) * 20, 8, 90);
  const faults = (page.faults ?? []).map((f) => `!fault ${f.status} ${f.times} ${f.retryAfter ?? 1}\n`).join('');
  const marker = Buffer.from(`OCR1\n${faults}${page.nonce ? `!nonce ${page.nonce}\n` : ''}${page.markdown}`, 'utf8');
  if (marker.length + 1 > SCAN_WIDTH * 8) throw new RangeError('marker too long for the fixture image');
  // The marker's bytes are the pixels' grey levels (no 0 inside UTF-8 text); a 0 ends it.
  for (let i = 0; i <= marker.length; i++) data.fill(marker[i] ?? 0, i * 3, i * 3 + 3);
  return { width: SCAN_WIDTH, height: SCAN_HEIGHT, channels: 3, data };
}

export function scanPng(page: ScanPage): Uint8Array {
  return encodePng(scanPixels(page));
}

/** A PDF whose pages are text (one string per page, lines split on \n). */
export async function textPdf(pages: readonly string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = doc.addPage([595, 842]);
    let y = 780;
    for (const line of text.split('\n')) {
      if (line !== '') page.drawText(line, { x: 50, y, size: 12, font });
      y -= line === '' ? 10 : 16;
    }
  }
  return doc.save();
}

/** A PDF made of scanned pages (one image each, no text layer). */
export async function imagePdf(pages: readonly ScanPage[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const scan of pages) {
    const image = await doc.embedPng(scanPng(scan));
    const page = doc.addPage([SCAN_WIDTH * 1.2, SCAN_HEIGHT * 1.2]);
    page.drawImage(image, { x: 0, y: 0, width: SCAN_WIDTH * 1.2, height: SCAN_HEIGHT * 1.2 });
  }
  return doc.save();
}

/** Starts like a PDF, then nothing pdf.js can parse. */
export function corruptPdf(): Uint8Array {
  return Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R >>\nthis is not a PDF body\n%%EOF\n', 'latin1');
}

export const INVOICE_MARKDOWN = ['# Invoice 2024-017', '', 'Sovereign Cloud SAS, 12 rue des Nuages, Lyon', '', '<table><tr><th>Item</th><th>Qty</th><th>Price</th></tr><tr><td>vCPU hours</td><td>720</td><td>36.00</td></tr><tr><td>Object storage</td><td>50 GB</td><td>4.50</td></tr></table>', '', 'Total: 40.50 EUR'].join('\n');

export const INVOICE_TABLE = ['| Item | Qty | Price |', '| --- | --- | --- |', '| vCPU hours | 720 | 36.00 |', '| Object storage | 50 GB | 4.50 |'].join('\n');

/**
 * A tiny PDF whose one page paints an image declaring `width` x `height` grey pixels, its stream
 * a few hundred bytes of Flate (decoding it would mean width x height bytes and more).
 */
export function hugeImagePdf(width: number, height: number): Uint8Array {
  const image = deflateSync(Buffer.alloc(4096));
  const content = Buffer.from('q 612 0 0 792 0 0 cm /Im1 Do Q\n', 'latin1');
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>', 'latin1'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 'latin1'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>', 'latin1'),
    Buffer.concat([Buffer.from(`<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${image.length} >>\nstream\n`, 'latin1'), image, Buffer.from('\nendstream', 'latin1')]),
    Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`, 'latin1'), content, Buffer.from('endstream', 'latin1')]),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((body, i) => {
    const part = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    offsets.push(at);
    parts.push(part);
    at += part.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}
