import { MAX_IMAGE_BYTES } from '../inference/chat/images';
import { DocumentError, formatMegabytes } from './errors';
import { imageSize, mediaType } from './image';
import type { DocumentFormat, DocumentSource, PageImage } from './types';

const MAX_THUMBNAIL_BYTES = 2 * 1024 * 1024;

/**
 * An image file (PNG, JPEG, WebP, TIFF...) as a one-page document, sent as it is: the model's
 * processor decodes and resizes it, and the request's `max_tokens` counts it at its size (or at
 * the whole image budget when the header does not say).
 */
export function imageDocument(bytes: Uint8Array, format: Exclude<DocumentFormat, 'pdf'>, fileName: string): DocumentSource {
  // Sent as it is (no decoder here for JPEG, WebP or TIFF): the per-image cap of chat requests applies.
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new DocumentError('too_large', `${fileName} is ${formatMegabytes(bytes.length)}; an image is sent to the OCR model as it is, at most ${formatMegabytes(MAX_IMAGE_BYTES)}. Save it smaller or more compressed (or as a PDF).`);
  }
  const size = imageSize(bytes, format);
  if (size && (size.width === 0 || size.height === 0)) throw new DocumentError('corrupt', `${fileName} is an image of ${size.width}x${size.height} pixels: nothing to read.`);
  // The view shows the file itself as the page's thumbnail when the webview can draw it and it is not huge.
  const drawable = format === 'png' || format === 'jpeg' || format === 'webp' || format === 'gif' || format === 'bmp';
  const mime = mediaType(format);
  const thumbnail = drawable && bytes.length <= MAX_THUMBNAIL_BYTES ? `data:${mime};base64,${Buffer.from(bytes).toString('base64')}` : undefined;
  const image: PageImage = { mime, bytes, width: size?.width, height: size?.height, thumbnail };
  return {
    format,
    pageCount: 1,
    info: () => Promise.resolve({ number: 1, textChars: 0, hasImage: true }),
    text: () => Promise.resolve(''),
    image: () => Promise.resolve(image),
    close: () => Promise.resolve(),
  };
}
