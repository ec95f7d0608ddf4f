/**
 * The largest image a PDF page may paint and still be decoded (width x height, pixels): pdf.js
 * refuses bigger ones before decoding (its `maxImageSize`). 40 megapixels holds an A4 page
 * scanned at 600 dpi (35 MP); a 20000 x 20000 image (400 MP) would cost gigabytes to decode just to
 * plan the pages.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

export interface DeclaredImage {
  readonly width: number;
  readonly height: number;
}

/** Image dictionaries looked at, at most: a hostile file cannot make the scan unbounded. */
const MAX_IMAGES = 10_000;
const SUBTYPE = Buffer.from('/Subtype');

/**
 * The sizes that a PDF's image XObjects declare (`/Subtype /Image` with direct `/Width` and
 * `/Height`), read from the bytes before anything is decoded. An image's dictionary always sits
 * in the file uncompressed (a stream cannot live in an object stream), so a byte scan finds them.
 */
export function declaredImageSizes(bytes: Uint8Array): DeclaredImage[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const images: DeclaredImage[] = [];
  for (let at = buffer.indexOf(SUBTYPE); at >= 0 && images.length < MAX_IMAGES; at = buffer.indexOf(SUBTYPE, at + SUBTYPE.length)) {
    if (!/^\/Subtype\s*\/Image\b/.test(buffer.toString('latin1', at, at + 24))) continue;
    // The dictionary around it: from its object's start to its stream (both within 2 KB).
    const window = buffer.toString('latin1', Math.max(0, at - 2048), at + 2048);
    const middle = Math.min(at, 2048);
    const start = window.lastIndexOf(' obj', middle);
    const endAt = window.indexOf('stream', middle);
    const dict = window.slice(start < 0 ? 0 : start, endAt < 0 ? window.length : endAt);
    const width = /\/Width\s+(\d{1,9})\b/.exec(dict)?.[1];
    const height = /\/Height\s+(\d{1,9})\b/.exec(dict)?.[1];
    if (width !== undefined && height !== undefined) images.push({ width: Number(width), height: Number(height) });
  }
  return images;
}

/** The images too large to decode. */
export function oversizedImages(images: readonly DeclaredImage[]): DeclaredImage[] {
  return images.filter((i) => i.width * i.height > MAX_IMAGE_PIXELS);
}

/**
 * What the document view and the Markdown say about a page that shows nothing readable while the
 * PDF holds an image too large to decode: which page, why, and what to do.
 */
export function oversizedImageNote(page: number, oversized: readonly DeclaredImage[]): string {
  const largest = oversized.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
  const megapixels = Math.round((largest.width * largest.height) / 1_000_000);
  const limit = MAX_IMAGE_PIXELS / 1_000_000;
  const which = oversized.length === 1 ? 'an image' : `${oversized.length} images, the largest`;
  return `Page ${page} was not read: this PDF holds ${which} of ${largest.width} × ${largest.height} pixels (${megapixels} megapixels), over the ${limit}-megapixel limit, so it is not decoded (decoding it would take gigabytes of memory). Export the page at a lower resolution (for example 300 dpi), or save it as an image of at most ${limit} megapixels, and read that file.`;
}
