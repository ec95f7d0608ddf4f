// What the user is left with in each cell of the fault matrix: defaults by kind of feature, then
// the cells that differ. `says` is the cell's title. Fake-time bounds come from the transport's
// defaults: 60 s of silence is a stall, 4 attempts in all (a billed request: one more after a
// 5xx, writeSafety.ts), a 2 s Retry-After is slept through.

import { INLINE_CALL } from '../../../src/core/inference/shared/call';

export type Expect = {
  says: string;
  /** Requests on the feature's endpoint (for a write: POSTs). */
  requests?: number;
  minElapsedMs?: number;
  maxElapsedMs?: number;
} & (
  | { outcome: 'ok' }
  | { outcome: 'silent'; detail: RegExp }
  | { outcome: 'error' | 'partial'; error: string; actions: readonly string[] }
);

const IDLE_MS = 60_000;
const INLINE_FIRST_BYTE_MS = INLINE_CALL.firstByteTimeoutMs;
const INLINE_IDLE_MS = INLINE_CALL.idleTimeoutMs;
/** Retries back off at most 8 s each; three of them. */
const RETRIES_MS = 3 * 8_000;

type Table = Record<string, Expect>;

const retried = (requests = 2): Expect => ({ says: 'retried and succeeded', outcome: 'ok', requests, maxElapsedMs: 8_000 });
const error = (kind: string, actions: readonly string[], says: string, extra: Partial<Expect> = {}): Expect => ({ says, outcome: 'error', error: kind, actions, ...extra } as Expect);
const partial = (kind: string, says: string, extra: Partial<Expect> = {}): Expect => ({ says, outcome: 'partial', error: kind, actions: ['retry'], ...extra } as Expect);

const TRANSIENT = {
  '429+RA': { says: 'waited the 2 s asked, retried and succeeded', outcome: 'ok', requests: 2, minElapsedMs: 2_000, maxElapsedMs: 2_000 },
  '429': retried(),
  '500': retried(),
  '502': retried(),
  '503': retried(),
  '504': retried(),
} satisfies Table;

/** Each answer may be billed (chat, completion, embeddings, rerank, transcription): sent again once after a 5xx. */
const BILLED_503 = error('api', ['retry'], 'retried once (each answer may be billed), then a 503 error without the page, with Retry', { requests: 2, maxElapsedMs: 8_000 });

/** A streamed answer (the chat participant, the agent, the metered stream of the usage store). */
const STREAM: Table = {
  latency: { says: 'answers after the delay', outcome: 'ok', requests: 1, minElapsedMs: 5_000 },
  stall: partial('interrupted', 'partial answer kept, marked cut off after 60 s of silence', { requests: 1, minElapsedMs: IDLE_MS, maxElapsedMs: IDLE_MS + 1_000 }),
  reset: partial('interrupted', 'partial answer kept, marked cut off (reset), not resent', { requests: 1, maxElapsedMs: 1_000 }),
  malformed: partial('malformed_response', 'partial answer kept, unreadable event reported', { requests: 1, maxElapsedMs: 1_000 }),
  truncated: partial('interrupted', 'partial answer kept, marked ended early', { requests: 1, maxElapsedMs: 1_000 }),
  'html 503': BILLED_503,
  ...TRANSIENT,
  '401 expired': error('auth', ['setApiKey'], 'API key rejected: Set API Key', { requests: 1 }),
  '403': error('forbidden', ['showLog'], 'permission denied, not retried', { requests: 1 }),
};

/** A JSON answer (PAT exchange, console lists; the billed ones below). */
const JSON_CALL: Table = {
  latency: { says: 'answers after the delay', outcome: 'ok', requests: 1, minElapsedMs: 5_000 },
  stall: error('timeout', ['retry'], 'body timeout after 60 s of silence, with Retry', { requests: 1, minElapsedMs: IDLE_MS, maxElapsedMs: IDLE_MS }),
  reset: error('network', ['retry'], 'connection error with Retry', { requests: 1, maxElapsedMs: 0 }),
  malformed: error('malformed_response', ['retry'], 'unreadable answer reported, with Retry', { requests: 1, maxElapsedMs: 0 }),
  truncated: error('malformed_response', ['retry'], 'cut answer reported as unreadable, with Retry', { requests: 1, maxElapsedMs: 0 }),
  'html 503': error('api', ['retry'], 'retried 3 times, then a 503 error without the page, with Retry', { requests: 4, maxElapsedMs: RETRIES_MS }),
  ...TRANSIENT,
  '401 expired': error('auth', ['setApiKey'], 'API key rejected: Set API Key', { requests: 1 }),
  '403': error('forbidden', ['showLog'], 'permission denied, not retried', { requests: 1 }),
};

/** A billed JSON answer (rerank, embeddings, transcription, an OCR page). */
const BILLED_JSON: Table = { ...JSON_CALL, 'html 503': BILLED_503 };

const SILENT = (detail: RegExp, says: string, extra: Partial<Expect> = {}): Expect => ({ says, outcome: 'silent', detail, ...extra } as Expect);

const BY_FEATURE: Record<string, Table> = {
  'chat stream': STREAM,
  'agent loop': {
    // The fault hits round 2 (after the tool ran once): round 1's request adds one.
    ...Object.fromEntries(Object.entries(STREAM).map(([k, v]) => [k, v.requests === undefined ? v : { ...v, requests: v.requests + 1 }])),
    stall: partial('interrupted', 'tool run once and kept; partial answer kept, cut off after 60 s', { requests: 2, minElapsedMs: IDLE_MS, maxElapsedMs: IDLE_MS + 1_000 }),
  },
  // Ghost text is sent once, gives up after 4 s without a first byte or 3 s of silence
  // (INLINE_CALL in src/core/inference/shared/call.ts), and the engine pauses quietly.
  'inline completion': {
    latency: SILENT(/^paused$/, 'no first byte within 4 s: given up, backs off silently', { requests: 1, minElapsedMs: INLINE_FIRST_BYTE_MS, maxElapsedMs: INLINE_FIRST_BYTE_MS }),
    stall: SILENT(/^paused$/, 'stalled stream given up after 3 s of silence, backs off silently', { requests: 1, maxElapsedMs: INLINE_IDLE_MS + 1_000 }),
    reset: SILENT(/^paused$/, 'no ghost text, backs off silently', { requests: 1 }),
    malformed: SILENT(/^paused$/, 'no ghost text, backs off silently', { requests: 1 }),
    truncated: SILENT(/^paused$/, 'no ghost text, backs off silently', { requests: 1 }),
    'html 503': SILENT(/^paused$/, 'not retried: no ghost text, backs off silently', { requests: 1, maxElapsedMs: 0 }),
    '429+RA': SILENT(/^paused$/, 'not retried: pauses for the 2 s asked, silently', { requests: 1, maxElapsedMs: 0 }),
    '429': SILENT(/^paused$/, 'not retried: pauses silently', { requests: 1, maxElapsedMs: 0 }),
    '500': SILENT(/^paused$/, 'not retried: pauses silently', { requests: 1, maxElapsedMs: 0 }),
    '502': SILENT(/^paused$/, 'not retried: pauses silently', { requests: 1, maxElapsedMs: 0 }),
    '503': SILENT(/^paused$/, 'not retried: pauses silently', { requests: 1, maxElapsedMs: 0 }),
    '504': SILENT(/^paused$/, 'not retried: pauses silently', { requests: 1, maxElapsedMs: 0 }),
    '401 expired': SILENT(/^stopped notified:auth$/, 'stops, one notification to set the key', { requests: 1 }),
    '403': SILENT(/^stopped notified:forbidden$/, 'stops, one notification', { requests: 1 }),
  },
  rerank: BILLED_JSON,
  embeddings: BILLED_JSON,
  transcription: BILLED_JSON,
  'resource list': {
    ...JSON_CALL,
    '401 expired': { says: 'token refreshed, list resent once and shown', outcome: 'ok', requests: 2 },
    // A read: a connection that breaks in the answer is sent again (transport.ts reads GETs whole).
    reset: { says: 'answer cut by a reset: read again, shown', outcome: 'ok', requests: 2, maxElapsedMs: 8_000 },
  },
  'write + follow': {
    latency: { says: 'created and followed to completion', outcome: 'ok', requests: 1, minElapsedMs: 5_000 },
    stall: { says: 'a stalled activity read is polled again; completed', outcome: 'ok', requests: 1, minElapsedMs: IDLE_MS },
    reset: error('outcome_unknown', ['openActivities', 'sendAgain'], 'applied, answer lost: outcome unknown, never resent', { requests: 1 }),
    malformed: { says: 'an unreadable activity read is polled again; completed', outcome: 'ok', requests: 1 },
    truncated: { says: 'a cut activity read is polled again; completed', outcome: 'ok', requests: 1 },
    'html 503': error('api', ['openActivities', 'sendAgain'], '503 page: outcome unknown, never resent', { requests: 1 }),
    '429+RA': { says: 'refused (429), sent again after 2 s, completed', outcome: 'ok', requests: 2, minElapsedMs: 2_000 },
    '429': { says: 'refused (429), sent again, completed', outcome: 'ok', requests: 2 },
    '500': error('api', ['openActivities', 'sendAgain'], 'outcome unknown, never resent', { requests: 1 }),
    '502': error('api', ['openActivities', 'sendAgain'], 'outcome unknown, never resent', { requests: 1 }),
    '503': error('api', ['openActivities', 'sendAgain'], 'outcome unknown, never resent', { requests: 1 }),
    '504': error('api', ['openActivities', 'sendAgain'], 'outcome unknown, never resent', { requests: 1 }),
    '401 expired': { says: 'refused (401), token refreshed, sent again, completed', outcome: 'ok', requests: 2 },
    '403': error('forbidden', ['showLog'], 'permission denied, provably not applied', { requests: 1 }),
    'activity failed': error('activity_failed', ['retry'], 'failed with the reason, Retry', { requests: 1 }),
    'activity stuck': error('activity_still_running', ['openActivities'], 'stops following at the 30 min deadline, Activities view', { requests: 1, minElapsedMs: 30 * 60_000, maxElapsedMs: 30 * 60_000 }),
  },
  'PAT exchange': {
    ...JSON_CALL,
    '401 expired': error('auth', ['signIn'], 'PAT rejected: Sign In', { requests: 1 }),
    '403': error('auth', ['signIn'], 'PAT refused: Sign In', { requests: 1 }),
  },
  'usage store': {
    ...STREAM,
    'disk full': { says: 'answer shown; write fails with a logged warning, events kept and written once the disk frees', outcome: 'ok', requests: 1 },
    unwritable: { says: 'answer shown; write fails with a logged warning, events kept and written once writable', outcome: 'ok', requests: 1 },
  },
};

/**
 * Edit by instruction and commit message stream into the user's own text (the document, the SCM
 * input box): a stream that breaks after a partial answer is rolled back, never left half done.
 */
const ROLLED_BACK: Table = {
  ...STREAM,
  stall: error('interrupted', ['retry'], 'cut off after 60 s of silence: what streamed is rolled back, with Retry', { requests: 1, minElapsedMs: IDLE_MS, maxElapsedMs: IDLE_MS + 1_000 }),
  reset: error('interrupted', ['retry'], 'cut off (reset): what streamed is rolled back, not resent, with Retry', { requests: 1, maxElapsedMs: 1_000 }),
  malformed: error('malformed_response', ['retry'], 'unreadable event reported; what streamed is rolled back', { requests: 1, maxElapsedMs: 1_000 }),
  truncated: error('interrupted', ['retry'], 'ended early: what streamed is rolled back, with Retry', { requests: 1, maxElapsedMs: 1_000 }),
};

BY_FEATURE.edit = ROLLED_BACK;
BY_FEATURE['commit message'] = ROLLED_BACK;
/** One page, non-streamed: the page fails with the reason, kept in the view and the Markdown. */
BY_FEATURE['OCR page'] = BILLED_JSON;
BY_FEATURE['search index'] = {
  'disk full': { says: 'ENOSPC: answers from memory, one warning, file on disk intact, saved once space is back', outcome: 'ok', requests: 0 },
  unwritable: { says: 'folder blocked: answers from memory, one warning, saved once writable', outcome: 'ok', requests: 0 },
};

export function expectationFor(feature: string, fault: string): Expect {
  const expect = BY_FEATURE[feature]?.[fault];
  if (!expect) throw new Error(`no expectation for ${feature} x ${fault}`);
  return expect;
}
