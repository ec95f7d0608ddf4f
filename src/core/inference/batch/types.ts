/** The provider's asynchronous Batch API (field-notes.md, "Inference: asynchronous batch"). */

/** Documented limits of one batch: checked before anything is sent. */
export const BATCH_LIMITS = {
  /** Bytes of one JSONL input file. */
  maxFileBytes: 100 * 1024 * 1024,
  /** Requests (lines) of one batch. */
  maxLines: 50_000,
  /** The only completion window offered. */
  completionWindow: '24h',
  /** How long the provider keeps results, from completion. */
  resultsKeptMs: 7 * 86_400_000,
  /** Batches an account may run at once. */
  maxConcurrent: 10,
} as const;

/** Endpoints a batch line may address. */
export type BatchEndpoint = '/v1/chat/completions' | '/v1/embeddings';

export const BATCH_ENDPOINTS: readonly BatchEndpoint[] = ['/v1/chat/completions', '/v1/embeddings'];

/** One request of a batch: the same body as a direct call (never streamed). */
export interface BatchRequest {
  /** The caller's id, unique within the job; results come back keyed by it. */
  customId: string;
  /** The request body (model, messages or input, ...). */
  body: Readonly<Record<string, unknown>>;
}

export type BatchStatus = 'validating' | 'in_progress' | 'finalizing' | 'completed' | 'failed' | 'cancelling' | 'cancelled' | 'expired';

/** The statuses after which a batch never changes again. */
export const FINAL_STATUSES: ReadonlySet<BatchStatus> = new Set<BatchStatus>(['completed', 'failed', 'cancelled', 'expired']);

export interface BatchRequestCounts {
  total: number;
  completed: number;
  failed: number;
}

/** One problem the provider found while validating the input file. */
export interface BatchValidationIssue {
  code: string | undefined;
  message: string;
  /** 1-based line of the input file, when given. */
  line: number | undefined;
}

/** A batch as the provider describes it, range-checked. */
export interface Batch {
  id: string;
  status: BatchStatus;
  endpoint: string;
  inputFileId: string;
  outputFileId: string | undefined;
  errorFileId: string | undefined;
  /** Unix milliseconds. */
  createdAt: number;
  completedAt: number | undefined;
  expiresAt: number | undefined;
  requestCounts: BatchRequestCounts;
  /** Validation problems of a `failed` batch (the provider's `errors`). */
  errors: BatchValidationIssue[];
}

/** An uploaded file. */
export interface BatchFile {
  id: string;
  bytes: number;
  filename: string;
  createdAt: number;
}

/** One line of a results file: a response or an error for one `custom_id`. */
export type BatchResult =
  | { customId: string; ok: true; statusCode: number; body: Readonly<Record<string, unknown>> }
  | { customId: string; ok: false; code: string; message: string; statusCode: number | undefined };
