import type { Payload } from './payload';
import type { ResponseBody } from './types';

/**
 * Byte counting for the Network Activity view: the size of what a request sends and of each
 * response chunk as it is read (streams are counted chunk by chunk, never buffered). Sizes only:
 * nothing here keeps or passes on a byte of content.
 */

/** UTF-8 length of a string without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** The request body's size: a raw or JSON body exactly; a form as the sum of its parts (framing left out). */
export function payloadBytes(payload: Payload): number {
  switch (payload.kind) {
    case 'none':
      return 0;
    case 'raw':
      return typeof payload.data === 'string' ? utf8Length(payload.data) : payload.data.byteLength;
    case 'form':
      return payload.fields.reduce((sum, field) => {
        if ('value' in field) return sum + utf8Length(field.value);
        if ('blob' in field) return sum + field.blob.size;
        return sum + field.data.byteLength;
      }, 0);
  }
}

/**
 * The body, each chunk's size told to `onBytes` as the reader takes it. A plain iterator over the
 * inner one (no generator): the streaming hot path gains one call per chunk, and an early exit
 * still cancels the inner body.
 */
export function countedBody(body: ResponseBody, onBytes: (bytes: number) => void): ResponseBody {
  return {
    [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
      const inner = body[Symbol.asyncIterator]();
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          const step = await inner.next();
          if (!step.done) onBytes(step.value.byteLength);
          return step;
        },
        async return(): Promise<IteratorResult<Uint8Array>> {
          return (await inner.return?.()) ?? { done: true, value: undefined };
        },
      };
    },
  };
}

/** The feature a request serves when the caller did not say: from its API path. */
export function featureOfPath(path: string): string {
  if (path.startsWith('/v1/chat/')) return 'chat';
  if (path.startsWith('/v1/completions')) return 'completion';
  if (path.startsWith('/v1/embeddings')) return 'embeddings';
  if (path.startsWith('/v1/audio/')) return 'transcription';
  if (path.startsWith('/v1/models')) return 'models';
  if (path.includes('rerank')) return 'rerank';
  if (path.startsWith('/api/') || path.startsWith('/auth')) return 'console';
  return 'other';
}
