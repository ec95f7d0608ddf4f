import { DocumentError } from './errors';
import { imageSize, mediaType } from './image';
import type { DocumentFormat, DocumentSource, PageImage } from './types';

/**
 * An image file (PNG, JPEG, WebP, TIFF...) as a one-page document, sent as it is: the model's
 * processor decodes and resizes it, and the request's `max_tokens` counts it at its size (or at
 * the whole image budget when the header does not say).
 */
export function imageDocument(bytes: Uint8Array, format: Exclude<DocumentFormat, 'pdf'>, fileName: string): DocumentSource {
  const size = imageSize(bytes, format);
  if (size && (size.width === 0 || size.height === 0)) throw new DocumentError('corrupt', `${fileName} is an image of ${size.width}x${size.height} pixels: nothing to read.`);
  const image: PageImage = { mime: mediaType(format), bytes, width: size?.width, height: size?.height };
  return {
    format,
    pageCount: 1,
    info: () => Promise.resolve({ number: 1, textChars: 0, hasImage: true }),
    text: () => Promise.resolve(''),
    image: () => Promise.resolve(image),
    close: () => Promise.resolve(),
  };
}
