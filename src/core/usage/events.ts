/**
 * What every inference response reports to the usage meter. Emitted by the inference client
 * (chat, completions, embeddings, rerank, transcription) through `InferenceClientOptions.onUsage`;
 * consumed by the meter in this folder. Plain data: times are Unix milliseconds.
 */
export type UsageEvent =
  | {
      kind: 'chat';
      at: number;
      model: string;
      promptTokens: number;
      completionTokens: number;
      reasoningTokens: number;
      /**
       * True when the service sent no usage and the figures are estimated from the text: answers
       * without a usage chunk, and streams cancelled, interrupted or stopped early (counted from
       * what arrived, since the provider bills what it generated).
       */
      estimated: boolean;
    }
  /**
   * An inline (ghost-text) completion request: billed like chat, and counted apart so the Usage
   * view can tell what an accepted suggestion costs. Metered when the caller passes
   * `purpose: 'inline'` (see metering.ts).
   */
  | {
      kind: 'completion';
      at: number;
      model: string;
      promptTokens: number;
      completionTokens: number;
      reasoningTokens: number;
      estimated: boolean;
    }
  /** An edit by instruction (the editor's Edit with Instruction): billed like chat, counted apart. */
  | {
      kind: 'edit';
      at: number;
      model: string;
      promptTokens: number;
      completionTokens: number;
      reasoningTokens: number;
      estimated: boolean;
    }
  /**
   * A commit message written from a repository's changes: billed like chat, counted apart (kind
   * `commit`). Metered when the caller passes `purpose: 'commit'` (see metering.ts).
   */
  | {
      kind: 'commit';
      at: number;
      model: string;
      promptTokens: number;
      completionTokens: number;
      reasoningTokens: number;
      estimated: boolean;
    }
  /**
   * Acceptance statistics of inline completion (completionStats.ts): the provider was asked for
   * a suggestion, a suggestion was shown, or one was accepted (characters and lines inserted).
   * Counts nothing billable; `model` is '' when unknown.
   */
  /** A document page read by the OCR model (src/core/documents): billed like chat, counted apart. */
  | { kind: 'ocr'; at: number; model: string; promptTokens: number; completionTokens: number; reasoningTokens: number; estimated: boolean }
  | { kind: 'inlineStat'; at: number; stat: InlineStat; model: string; chars: number; lines: number }
  | { kind: 'embeddings'; at: number; model: string; promptTokens: number; estimated: boolean }
  | { kind: 'rerank'; at: number; model: string; searchUnits: number; rerankedTokens: number; estimated: boolean }
  | { kind: 'transcription'; at: number; model: string; audioSeconds: number; estimated?: boolean }
  | {
      kind: 'rateLimit';
      at: number;
      limitRequests?: number | undefined;
      remainingRequests?: number | undefined;
      /** Unix milliseconds when the request window resets, when the server said. */
      resetAt?: number | undefined;
    };

export type InlineStat = 'requested' | 'shown' | 'accepted';

export type UsageListener = (event: UsageEvent) => void;
