/**
 * Why a document cannot be read at all (a page's failure is a PageOutcome instead). The feature
 * shows `message` as is: it names the file and says what to do.
 */
export type DocumentRefusal = 'too_large' | 'unsupported' | 'corrupt' | 'encrypted' | 'empty';

export class DocumentError extends Error {
  constructor(
    readonly reason: DocumentRefusal,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DocumentError';
  }
}

export function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
