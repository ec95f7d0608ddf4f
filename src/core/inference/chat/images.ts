/**
 * Size caps for image attachments. The contract states no body limit, and a base64 data URI is a
 * third larger than the image, so one large screenshot can make a request the service (or a proxy
 * on the way) refuses after a long upload. Images over the cap are refused before sending.
 */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGES_TOTAL_BYTES = 20 * 1024 * 1024;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Counts the images of one request against the per-image and total caps. */
export class ImageBudget {
  private used = 0;

  constructor(
    private readonly perImage: number = MAX_IMAGE_BYTES,
    private readonly total: number = MAX_IMAGES_TOTAL_BYTES,
  ) {}

  /** Counts an image of `bytes`; returns why it does not fit instead (a sentence about `name`), else undefined. */
  admit(name: string, bytes: number): string | undefined {
    if (bytes > this.perImage) {
      return `${name} is ${formatBytes(bytes)}; images are limited to ${formatBytes(this.perImage)} each. Attach a smaller or more compressed image.`;
    }
    if (this.used + bytes > this.total) {
      return `${name} would bring the images of this request to ${formatBytes(this.used + bytes)}; at most ${formatBytes(this.total)} of images are sent at once. Attach fewer images.`;
    }
    this.used += bytes;
    return undefined;
  }
}
