/**
 * What every inference response reports to the usage meter. Emitted by the inference client
 * (chat, completions, embeddings, rerank, transcription) through `InferenceClientOptions.onUsage`;
 * consumed by the meter in this folder. Plain data: times are Unix milliseconds.
 */

/**
 * Requests that generate text, billed like chat and counted apart so the Usage view can tell them
 * apart: `chat`; `completion`, an inline (ghost-text) completion; `edit`, an edit by instruction;
 * `commit`, a commit message; `ocr`, a document page read by the OCR model (src/core/documents);
 * `nextEdit`, a next edit suggestion (src/core/nextEdit); `review`, a review of uncommitted changes
 * (src/core/review).
 * The caller's `purpose` decides the kind (see metering.ts).
 */
export type GenerationKind = 'chat' | 'completion' | 'edit' | 'commit' | 'ocr' | 'nextEdit' | 'review';

export type UsageEvent =
  | {
      kind: GenerationKind;
      at: number;
      model: string;
      promptTokens: number;
      completionTokens: number;
      reasoningTokens: number;
      /** Of the prompt tokens, those the server served from its prompt cache (when it said). */
      cachedTokens?: number | undefined;
      /**
       * True when the service sent no usage and the figures are estimated from the text: answers
       * without a usage chunk, and streams cancelled, interrupted or stopped early (counted from
       * what arrived, since the provider bills what it generated).
       */
      estimated: boolean;
    }
  /**
   * Acceptance statistics of inline completion (completionStats.ts): the provider was asked for
   * a suggestion, a suggestion was shown, or one was accepted (characters and lines inserted).
   * Counts nothing billable; `model` is '' when unknown.
   */
  | { kind: 'inlineStat'; at: number; stat: InlineStat; model: string; chars: number; lines: number }
  | { kind: 'embeddings'; at: number; model: string; promptTokens: number; estimated: boolean }
  | { kind: 'rerank'; at: number; model: string; searchUnits: number; rerankedTokens: number; estimated: boolean }
  | { kind: 'transcription'; at: number; model: string; audioSeconds: number; estimated?: boolean }
  /**
   * Asynchronous batch work, recorded once per job when its results are read (the `usage` of
   * each result line, summed): billed at the batch rates, and not counted against the hourly or
   * daily output-token caps (those are the interactive caps). `requests`: the results it sums.
   */
  | { kind: 'batch'; at: number; model: string; requests: number; promptTokens: number; completionTokens: number; estimated: boolean }
  | {
      kind: 'rateLimit';
      at: number;
      limitRequests?: number | undefined;
      remainingRequests?: number | undefined;
      /** Unix milliseconds when the request window resets, when the server said. */
      resetAt?: number | undefined;
    };

export type InlineStat = 'requested' | 'shown' | 'accepted';

/** The event of a generating request, whatever its kind. */
export type GenerationEvent = Extract<UsageEvent, { kind: GenerationKind }>;

/** The event of one kind (a generation kind gives the generation event, its `kind` narrowed). */
export type UsageEventOf<K extends UsageEvent['kind']> = K extends GenerationKind ? GenerationEvent & { kind: K } : Extract<UsageEvent, { kind: K }>;

export type UsageListener = (event: UsageEvent) => void;
