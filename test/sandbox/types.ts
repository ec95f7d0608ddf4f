/** Public types of the sandbox server (re-exported by index.ts). */
import type { ConsolePathsMode, UnroutedConsoleAnswer } from './console/productionPaths';
import type { SandboxTimers } from './core/clock';
import type { GatewaySpec } from './core/gateway';
import type { BatchAvailability, BatchModeSpec } from './inference/batches';

export type SandboxProfile = 'contract' | 'production';

export interface Tier {
  outputTokensPerHour: number;
  outputTokensPerDay: number;
}

export interface ConsoleRateLimits {
  /** Successful requests per second per source IP and per module (default 25). */
  perModule: number;
  /** Successful requests per second per source IP on the PAT exchange route (default 5). */
  auth: number;
}

export interface SandboxOptions {
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 'contract'. */
  profile?: SandboxProfile;
  /** Lifetime of console access tokens (JWT), default 300. */
  jwtLifetimeSeconds?: number;
  /** Duration of one activity step (waiting -> running steps -> terminal), default 1000. */
  activityStepMs?: number;
  /** Output-token tier, default Tier 1 (150 000/hour, 3 600 000/day). */
  tier?: Tier;
  /** Number of seeded virtual machines, default 25. */
  vmCount?: number;
  /** Number of seeded users, default 12. */
  userCount?: number;
  /** Number of seeded virtual networks, default 8. */
  networkCount?: number;
  /** Console per-IP limits; `false` disables them. Default {perModule: 25, auth: 5}. */
  consoleRateLimits?: ConsoleRateLimits | false;
  /** Delay between SSE events of a stream (demo pacing), default 0. */
  chunkDelayMs?: number;
  /**
   * Lists of the production profile. `ranged` (default): `name` filters, a partial answer is 206
   * with `Content-Range`. `plain`: `limit`/`offset` honoured, `name` ignored, always 200 with a
   * bare array and no total (a full page looks like any other page).
   */
  productionLists?: 'ranged' | 'plain';
  /**
   * Console resource paths served. `all` (default): the contract's and production's. `production`:
   * only production's (`/api/compute/v1/vcenters/virtual_machines`, `/api/iam/v2/users?companyId=`),
   * the contract's answer 404 (console/productionPaths.ts).
   */
  consolePaths?: ConsolePathsMode;
  /** What a console path no route serves answers (console/productionPaths.ts UnroutedConsoleAnswer); default `notFound`. */
  unroutedConsolePaths?: UnroutedConsoleAnswer;
  /** Time source for the sandbox clock (default: the real timers); tests pass a fake-timers clock. */
  timers?: SandboxTimers;
  /** Gateway mode (core/gateway.ts): every API request needs this header; default off. */
  gateway?: GatewaySpec;
  /**
   * The Batch API (inference/batches.ts): `available` (default), or every batch route answers 404
   * (`not_found`) or 403 (`forbidden`), as for an account the provider has not enabled yet.
   */
  batch?: BatchAvailability;
  /** Duration of one batch step (validating, two of in_progress, finalizing), default 60 000. */
  batchStepMs?: number;
}

export interface SandboxCredentials {
  apiKey: string;
  patId: string;
  patSecret: string;
}

export type StreamFaultKind = 'stall' | 'drop' | 'malformed' | 'truncate';

export interface StreamFaultSpec {
  /**
   * stall: stop sending after `afterChunks` events, keep the socket open until the client leaves.
   * drop: destroy the socket after `afterChunks` events.
   * malformed: after `afterChunks` events, send one event whose data is not valid JSON, then go on.
   * truncate: after `afterChunks` events, send half of the next event and end the response.
   */
  kind: StreamFaultKind;
  afterChunks: number;
  /** How many following streams are affected (default 1). */
  count?: number;
  /** Only streams whose path starts with this prefix (default: any stream). */
  pathPrefix?: string;
}

export type BurstStatus = 401 | 403 | 429 | 500 | 502 | 503 | 504;

/**
 * A fault on a whole (non-SSE) response body, e.g. a JSON answer, applied when the handler ends it:
 * stall: headers and half the body, then silence until the client leaves.
 * drop: headers and half the body, then the socket is destroyed.
 * truncate: half the body (chunked, no Content-Length) and a clean end: valid HTTP, cut JSON.
 * malformed: a body of the same status that is not valid JSON.
 */
export type BodyFaultKind = 'stall' | 'drop' | 'truncate' | 'malformed';

export interface BodyFaultSpec {
  kind: BodyFaultKind;
  /** How many following matching responses are affected (default 1). */
  count?: number;
  pathPrefix?: string;
}

export interface BurstSpec {
  status: BurstStatus;
  /** Number of following matching requests answered with `status`. */
  count: number;
  /** When set, a `Retry-After: <seconds>` header is sent. */
  retryAfterSeconds?: number;
  /** Only requests whose path starts with this prefix (default: every inference and console route). */
  pathPrefix?: string;
  /** Answer with an HTML error page (as a proxy or load balancer would) instead of the API's JSON error. */
  html?: boolean;
}

export interface LatencySpec {
  /** Delay before any response on matching paths. */
  ms: number;
  /** Delay between SSE events. */
  chunkDelayMs?: number;
  pathPrefix?: string;
}

export interface FailActivitiesSpec {
  /** The next N activities created fail (default 1 when neither next nor all is given). */
  next?: number;
  /** Every activity created from now on fails (until reset or all: false). */
  all?: boolean;
  /** The failure reason reported in the activity state. */
  reason?: string;
}

export interface DeprecationSpec {
  pathPrefix: string;
  /** `Deprecation` header value; default `@<now unix seconds>` (RFC 9745). */
  deprecation?: string;
  /** ISO date or HTTP date for the `Sunset` header; default 90 days from now. */
  sunset?: string;
  /** Replacement endpoint, sent as `Link: <link>; rel="successor-version"`. */
  link?: string;
}

export interface SeedSpec {
  vms?: number;
  users?: number;
  networks?: number;
}

export interface BodySummary {
  bytes: number;
  contentType: string | null;
  /** Parsed JSON with secret fields redacted and long strings shortened. */
  json?: unknown;
  /** multipart/form-data parts (file contents are not kept). */
  parts?: Array<{ name: string; filename?: string; contentType?: string; bytes: number; value?: string }>;
  /** Start of a non-JSON text body (redacted). */
  text?: string;
}

export interface RecordedRequest {
  seq: number;
  time: string;
  method: string;
  path: string;
  query: string;
  ip: string;
  /** Lower-cased header names; Authorization, Cookie and API-key headers redacted. */
  headers: Record<string, string>;
  body: BodySummary | null;
  status: number | null;
  durationMs: number | null;
  /** True when the response was a text/event-stream. */
  streamed: boolean;
  /** SSE events written (streams only). */
  chunksSent: number;
  /** The connection closed before the response was complete, and not because of a drop fault. */
  clientClosedEarly: boolean;
  /** The server destroyed the socket on purpose (drop fault). */
  droppedByServer: boolean;
  /** The fault applied to this request, if any (e.g. 'burst:503', 'stream:stall'). */
  fault: string | null;
}

/** One streamed answer to a code-completion prompt (a user message with `<CURSOR>`). */
export interface CompletionStreamRecord {
  /** The request's `seq` in the request log. */
  seq: number;
  model: string;
  /** Tokens the scripted continuation had (after the max_tokens cut). */
  tokensPlanned: number;
  /** Tokens written to the socket (one SSE event each) so far, or before the client went away. */
  tokensStreamed: number;
  /** The client closed the connection before the stream ended: generation stopped there. */
  abortedByClient: boolean;
  /** Every planned token was streamed and the response ended normally. */
  complete: boolean;
}

export interface ControlSnapshot {
  profile: SandboxProfile;
  consolePaths: ConsolePathsMode;
  unroutedConsolePaths: UnroutedConsoleAnswer;
  clockOffsetMs: number;
  latency: LatencySpec | null;
  streamFaults: StreamFaultSpec[];
  bodyFaults: BodyFaultSpec[];
  bursts: BurstSpec[];
  activities: { failNext: number; failAll: boolean; reason: string | null; slowFactor: number; firstRead404: boolean; stepMs: number };
  deprecations: DeprecationSpec[];
  tier: Tier;
  outputTokens: { hour: number; day: number };
  consoleRateLimits: ConsoleRateLimits | false;
  counts: { vms: number; users: number; networks: number; roles: number; activities: number };
  requestsLogged: number;
  gateway: GatewaySpec | null;
  batches: { available: BatchAvailability; hold: boolean; stepMs: number; count: number };
}

/**
 * Fault injection and introspection, callable in-process. Each method has an HTTP twin under
 * `/__sandbox/...` (see help.ts).
 */
export interface SandboxControl {
  /** Faults off, profile defaults back, data re-seeded, activities, usage, log and clock offset cleared. Issued JWTs stay valid. */
  reset(): void;
  setLatency(spec: LatencySpec | null): void;
  injectStreamFault(spec: StreamFaultSpec): void;
  /** A fault on the next matching non-SSE response body (JSON answers: lists, embeddings, ...). */
  injectBodyFault(spec: BodyFaultSpec): void;
  burst(spec: BurstSpec): void;
  /** The next matching request(s) take effect, then the socket is reset instead of answering. */
  resetAfterApply(spec: { method?: string; pathPrefix?: string; count: number }): void;
  /** Every JWT issued so far is rejected with 401 from now on. */
  expireTokens(): void;
  failActivities(spec: FailActivitiesSpec): void;
  /** Multiply the activity step duration (1 = normal). */
  slowActivities(factor: number): void;
  /** Eventual consistency: the first read of each new activity answers 404. */
  setActivityFirstRead404(enabled: boolean): void;
  /** Replace the seeded collections (only the given kinds). */
  seed(spec: SeedSpec): void;
  deprecate(spec: DeprecationSpec): void;
  setTier(tier: Tier): void;
  /** Count output tokens as if they had been generated (to reach a tier limit quickly). */
  consumeOutputTokens(tokens: number): void;
  /** Move the sandbox clock forward (rate-limit windows, JWT expiry, activity progress). */
  advanceTime(ms: number): void;
  setConsoleRateLimits(limits: ConsoleRateLimits | false): void;
  /** Which console resource paths are served from now on (SandboxOptions.consolePaths). */
  setConsolePaths(mode: ConsolePathsMode): void;
  /** What a console path no route serves answers from now on (SandboxOptions.unroutedConsolePaths). */
  setUnroutedConsolePaths(answer: UnroutedConsoleAnswer): void;
  /** Received requests, oldest first (bounded to the last 500). */
  requests(filter?: { pathPrefix?: string }): RecordedRequest[];
  clearRequests(): void;
  /** Longest string kept in recorded JSON bodies (default 200; reset restores it). */
  setRecordedStringLimit(maxChars: number): void;
  /** Streamed answers to code-completion prompts, oldest first (the last 200). */
  completionStreams(): CompletionStreamRecord[];
  clearCompletionStreams(): void;
  snapshot(): ControlSnapshot;
  /** Gateway mode on (the header and value every API request needs) or off (null). */
  setGateway(spec: GatewaySpec | null): void;
  /** The Batch API's mode: availability (404/403), batches held in progress, step duration. */
  setBatches(spec: BatchModeSpec): void;
}

export interface Sandbox {
  /** OpenAI-style base, includes /v1, e.g. http://127.0.0.1:PORT/v1 */
  readonly inferenceUrl: string;
  /** Console root; routes under /api/..., e.g. http://127.0.0.1:PORT */
  readonly consoleUrl: string;
  /** e.g. http://127.0.0.1:PORT/__sandbox */
  readonly controlUrl: string;
  readonly profile: SandboxProfile;
  readonly credentials: SandboxCredentials;
  readonly control: SandboxControl;
  /** Closes the server, destroys open sockets, cancels timers. */
  close(): Promise<void>;
}
