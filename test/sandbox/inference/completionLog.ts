import type { CompletionStreamRecord, RecordedRequest } from '../types';

/** At most this many completion streams are remembered (oldest dropped). */
export const MAX_COMPLETION_STREAMS = 200;

interface Entry {
  model: string;
  tokensPlanned: number;
  /** The request's log record: its SSE event count and early-close flag are live. */
  request: RecordedRequest;
}

/**
 * Streams answering a completion prompt (a user message with the cursor marker), so a test can
 * see how many tokens were generated before the client went away. One SSE event carries one
 * token; the first event (the role) carries none.
 */
export class CompletionStreamLog {
  private entries: Entry[] = [];

  add(model: string, tokensPlanned: number, request: RecordedRequest): void {
    this.entries.push({ model, tokensPlanned, request });
    if (this.entries.length > MAX_COMPLETION_STREAMS) this.entries.splice(0, this.entries.length - MAX_COMPLETION_STREAMS);
  }

  list(): CompletionStreamRecord[] {
    return this.entries.map(({ model, tokensPlanned, request }) => {
      const tokensStreamed = Math.max(0, Math.min(tokensPlanned, request.chunksSent - 1));
      return {
        seq: request.seq,
        model,
        tokensPlanned,
        tokensStreamed,
        abortedByClient: request.clientClosedEarly,
        complete: request.status !== null && !request.clientClosedEarly && tokensStreamed === tokensPlanned,
      };
    });
  }

  clear(): void {
    this.entries = [];
  }
}
