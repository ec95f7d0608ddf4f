import { createParser, type EventSourceParser } from 'eventsource-parser';
import type { AnyStratusError } from '../../errors';
import type { HttpResponse } from '../../http/types';

/** Decoding options for body chunks: one object, not one per chunk. */
const STREAM = { stream: true } as const;

/**
 * Fed once after the body ends. eventsource-parser's `reset({consume: true})` parses a last line
 * that has no line end but never dispatches its event, and it holds back a final CR (it could be
 * half of a CRLF). Two LFs end any pending line and then the event, whatever the framing (LF,
 * CRLF or CR) and whether or not the server sent the final blank line; after a complete event
 * they are only blank lines, which dispatch nothing.
 */
const END_OF_BODY = '\n\n';

/** The body ended: decode its last bytes and dispatch an unterminated last event, if any. */
function drain<R>(parser: EventSourceParser, utf8: InstanceType<typeof TextDecoder>, decoder: SseDecoder<R>): void {
  decoder.ending();
  parser.feed(utf8.decode());
  parser.feed(END_OF_BODY);
  parser.reset();
}

/** Receives each SSE event's data synchronously, then the end of the body. */
export interface SseDecoder<R> {
  onEvent(data: string, event: string | undefined): void;
  /**
   * True once the stream's end marker arrived (`data: [DONE]`): the reader stops at once and
   * releases the body, rather than waiting for a server or proxy that keeps the connection open.
   */
  readonly done: boolean;
  /** The body ended; an unterminated last event is dispatched next (it may be cut in half). */
  ending(): void;
  /** Called after the body ended: the result, or a typed error when the body stopped too early. */
  finish(): R;
  /**
   * Reading the body failed (`error` is already typed by the transport). Returns the error to
   * throw, or `undefined` when what arrived is a whole answer, which `finish()` then returns.
   */
  readFailed(error: AnyStratusError): Error | undefined;
}

/**
 * The hot path: a plain loop over the response body feeding eventsource-parser. Events reach the
 * decoder synchronously inside `feed`, so there is no promise or stream transform per event.
 * Read failures (stall, reset, abort) become typed errors; an error thrown while handling an event
 * (by the decoder or by the caller's callback) propagates as itself. Leaving the loop on any error
 * destroys the body, which closes the connection.
 */
export async function readSse<R>(res: HttpResponse, decoder: SseDecoder<R>): Promise<R> {
  const parser = createParser({ onEvent: (e) => decoder.onEvent(e.data, e.event) });
  // A streaming TextDecoder keeps UTF-8 sequences split across chunks whole.
  const utf8 = new TextDecoder();
  // True while waiting for the next chunk: only errors thrown then are transport failures.
  let reading = true;
  try {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      reading = false;
      parser.feed(utf8.decode(chunk, STREAM));
      // `[DONE]`: leaving the loop cancels the body (and the connection) without waiting for it.
      if (decoder.done) return decoder.finish();
      reading = true;
    }
  } catch (error) {
    if (!reading) throw error;
    const failure = decoder.readFailed(res.toError(error));
    if (failure) throw failure;
    return decoder.finish();
  }
  drain(parser, utf8, decoder);
  return decoder.finish();
}

/**
 * The same loop behind an async iterator for `for await` consumers. Hand-written rather than an
 * async generator: events already decoded from a body chunk are handed out with one resolved
 * promise each, where a generator's yield costs several promise hops per event. Returning early
 * (a `break` in the consumer) destroys the body, which closes the connection.
 */
export function iterateSse<E, R>(
  open: () => Promise<HttpResponse>,
  makeDecoder: (res: HttpResponse, push: (event: E) => void) => SseDecoder<R>,
  last: (result: R) => E,
): AsyncIterableIterator<E> {
  const queue: E[] = [];
  let head = 0;
  let ended = false;
  // A failure that came after events still queued (text held back, released by the failure):
  // thrown once they are handed out.
  let failed: { error: unknown } | undefined;
  let state:
    | { res: HttpResponse; reader: AsyncIterator<Uint8Array>; decoder: SseDecoder<R>; parser: EventSourceParser }
    | undefined;
  const utf8 = new TextDecoder();

  const start = async (): Promise<NonNullable<typeof state>> => {
    const res = await open();
    const decoder = makeDecoder(res, (event) => queue.push(event));
    const parser = createParser({ onEvent: (e) => decoder.onEvent(e.data, e.event) });
    const reader = (res.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    return { res, reader, decoder, parser };
  };

  // Reads body chunks until they yield at least one event (or the stream ends).
  const pull = async (): Promise<IteratorResult<E, undefined>> => {
    queue.length = 0;
    head = 0;
    if (failed) {
      const { error } = failed;
      failed = undefined;
      throw error;
    }
    state ??= await start();
    const { res, reader, decoder, parser } = state;
    while (queue.length === 0) {
      if (ended) return { done: true, value: undefined };
      let step: IteratorResult<Uint8Array>;
      try {
        step = await reader.next();
      } catch (error) {
        ended = true;
        const failure = decoder.readFailed(res.toError(error));
        if (failure) return failOrHandOut(failure);
        queue.push(last(decoder.finish()));
        break;
      }
      try {
        if (step.done) {
          ended = true;
          drain(parser, utf8, decoder);
          queue.push(last(decoder.finish()));
        } else {
          parser.feed(utf8.decode(step.value, STREAM));
          if (decoder.done) {
            // `[DONE]`: release the body now; events already decoded are handed out first.
            ended = true;
            await reader.return?.();
            queue.push(last(decoder.finish()));
          }
        }
      } catch (error) {
        // A decoding failure (malformed event, error in the stream): stop reading and hang up.
        ended = true;
        await reader.return?.();
        return failOrHandOut(error);
      }
    }
    return { done: false, value: queue[head++] as E };
  };

  // Events decoded before the failure are handed out first; the failure follows them.
  const failOrHandOut = (error: unknown): IteratorResult<E, undefined> => {
    if (queue.length === 0) throw error;
    failed = { error };
    return { done: false, value: queue[head++] as E };
  };

  const iterator: AsyncIterableIterator<E> = {
    next(): Promise<IteratorResult<E, undefined>> {
      if (head < queue.length) return Promise.resolve({ done: false, value: queue[head++] as E });
      return pull();
    },
    async return(): Promise<IteratorResult<E, undefined>> {
      ended = true;
      queue.length = 0;
      head = 0;
      await state?.reader.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
