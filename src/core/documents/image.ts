import type { DocumentFormat } from './types';
import type { Channels, Pixels } from './png';

/** The formats a file's first bytes say it is, with the media type the OCR request names. */
const MEDIA: Record<Exclude<DocumentFormat, 'pdf'>, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  tiff: 'image/tiff',
  gif: 'image/gif',
  bmp: 'image/bmp',
};

export function mediaType(format: Exclude<DocumentFormat, 'pdf'>): string {
  return MEDIA[format];
}

const startsWith = (bytes: Uint8Array, ...prefix: number[]): boolean => prefix.every((b, i) => bytes[i] === b);

/** What a file is by its content (never by its name), or undefined when it is none of the formats read here. */
export function sniffFormat(bytes: Uint8Array): DocumentFormat | undefined {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'pdf';
  if (startsWith(bytes, 0x89, 0x50, 0x4e, 0x47)) return 'png';
  if (startsWith(bytes, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'webp';
  if (startsWith(bytes, 0x49, 0x49, 0x2a, 0x00) || startsWith(bytes, 0x4d, 0x4d, 0x00, 0x2a)) return 'tiff';
  if (head.startsWith('GIF8')) return 'gif';
  if (head.startsWith('BM')) return 'bmp';
  return undefined;
}

/** Width and height from a PNG or JPEG header (other formats: undefined; the server's processor reads them). */
export function imageSize(bytes: Uint8Array, format: DocumentFormat): { width: number; height: number } | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'png' && view.length >= 24) return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
  if (format === 'jpeg') {
    for (let at = 2; at + 9 < view.length; ) {
      if (view[at] !== 0xff) return undefined;
      const marker = view[at + 1] ?? 0;
      const length = view.readUInt16BE(at + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: view.readUInt16BE(at + 5), width: view.readUInt16BE(at + 7) };
      }
      at += 2 + length;
    }
  }
  return undefined;
}

/** pdf.js image kinds (ImageKind): 1-bit grey packed in bytes, RGB, RGBA. */
export const PDFJS_IMAGE_KIND = { grayscale1bpp: 1, rgb24bpp: 2, rgba32bpp: 3 } as const;

/** A decoded pdf.js image as pixels (1-bit grey expanded to 8-bit: a set bit is white, as pdf.js draws it). */
export function pixelsFromPdfJs(image: { width: number; height: number; kind?: number | undefined; data?: Uint8Array | Uint8ClampedArray | undefined }): Pixels | undefined {
  const { width, height, kind, data } = image;
  if (!data || width <= 0 || height <= 0) return undefined;
  if (kind === PDFJS_IMAGE_KIND.rgb24bpp) return { width, height, channels: 3, data: new Uint8Array(data.buffer, data.byteOffset, width * height * 3) };
  if (kind === PDFJS_IMAGE_KIND.rgba32bpp) return { width, height, channels: 4, data: new Uint8Array(data.buffer, data.byteOffset, width * height * 4) };
  if (kind === PDFJS_IMAGE_KIND.grayscale1bpp) {
    const rowBytes = (width + 7) >> 3;
    const out = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) out[y * width + x] = ((data[y * rowBytes + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1 ? 255 : 0;
    }
    return { width, height, channels: 1, data: out };
  }
  return undefined;
}

/**
 * Scales pixels down (area average) so that neither side exceeds what `fits` allows; pixels that
 * already fit come back unchanged (a marker drawn in them survives, which the sandbox relies on).
 */
export function downscale(pixels: Pixels, maxWidth: number, maxHeight: number): Pixels {
  const scale = Math.min(1, maxWidth / pixels.width, maxHeight / pixels.height);
  if (scale >= 1) return pixels;
  const width = Math.max(1, Math.floor(pixels.width * scale));
  const height = Math.max(1, Math.floor(pixels.height * scale));
  const channels: Channels = pixels.channels;
  const out = new Uint8Array(width * height * channels);
  const sums = new Float64Array(channels);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * pixels.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * pixels.height) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * pixels.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * pixels.width) / width));
      sums.fill(0);
      for (let sy = y0; sy < y1; sy++) {
        let at = (sy * pixels.width + x0) * channels;
        for (let sx = x0; sx < x1; sx++) for (let c = 0; c < channels; c++) sums[c] = (sums[c] ?? 0) + (pixels.data[at++] ?? 0);
      }
      const n = (y1 - y0) * (x1 - x0);
      for (let c = 0; c < channels; c++) out[(y * width + x) * channels + c] = Math.round((sums[c] ?? 0) / n);
    }
  }
  return { width, height, channels, data: out };
}
