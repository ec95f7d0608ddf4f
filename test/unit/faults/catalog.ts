// The faults of the matrix, each injected by the sandbox (test/sandbox/core/faults.ts) on the
// feature's own endpoint, and the n/a rules: a cell that cannot apply says why.
import type { Feature } from './features';
import type { World } from './harness';

export interface Fault {
  id: string;
  /** Why it does not apply to `feature`, or undefined when it does. */
  notApplicable(feature: Feature): string | undefined;
  inject(world: World, feature: Feature): void;
  /** Storage faults are handed to the feature instead of the sandbox. */
  disk?: 'full' | 'unwritable';
}

const ACTIVITY_PATH = '/api/activity';
const CONSOLE = new Set(['resource list', 'write + follow', 'PAT exchange']);
const WRITES_FILES = new Set(['usage store', 'search index']);
/** Features that send nothing themselves (the search index's requests are the rerank and embeddings rows). */
const LOCAL = new Set(['search index']);

/** Mid-stream faults of a write hit the activity reads that follow it (the POST's body is empty). */
function streamPath(feature: Feature): string {
  return feature.id === 'write + follow' ? ACTIVITY_PATH : feature.path;
}

function network(): (feature: Feature) => string | undefined {
  return (feature) => (LOCAL.has(feature.id) ? 'sends no request (its rerank and embeddings are their own rows)' : undefined);
}

/** A mid-stream fault: the SSE stream after a few events, or the JSON body halfway. */
function midStream(id: string, sse: 'stall' | 'drop' | 'malformed' | 'truncate', body: 'stall' | 'drop' | 'malformed' | 'truncate'): Fault {
  return {
    id,
    notApplicable: network(),
    inject: (world, feature) => {
      if (feature.body === 'sse') {
        // Spaced events, so what came before the fault has reached the client when it strikes.
        world.sandbox.control.setLatency({ ms: 0, chunkDelayMs: 50, pathPrefix: feature.path });
        world.sandbox.control.injectStreamFault({ kind: sse, afterChunks: 3, pathPrefix: feature.path });
      } else if (id === 'reset' && feature.id === 'write + follow') {
        // The write takes effect, then its connection breaks before the answer.
        world.sandbox.control.resetAfterApply({ method: 'POST', pathPrefix: feature.path, count: 1 });
      } else {
        // Two for the activity reads: production answers the first read of a new activity 404.
        world.sandbox.control.injectBodyFault({ kind: body, pathPrefix: streamPath(feature), count: streamPath(feature) === ACTIVITY_PATH ? 2 : 1 });
      }
    },
  };
}

function burst(id: string, status: 401 | 403 | 429 | 500 | 502 | 503 | 504, extra: { retryAfterSeconds?: number; html?: boolean; count?: number } = {}): Fault {
  return {
    id,
    notApplicable: network(),
    inject: (world, feature) => world.sandbox.control.burst({ status, count: extra.count ?? 1, pathPrefix: feature.path, ...(extra.retryAfterSeconds !== undefined ? { retryAfterSeconds: extra.retryAfterSeconds } : {}), ...(extra.html ? { html: true } : {}) }),
  };
}

export const FAULTS: readonly Fault[] = [
  { id: 'latency', notApplicable: network(), inject: (world, feature) => world.sandbox.control.setLatency({ ms: 5_000, pathPrefix: streamPath(feature) }) },
  midStream('stall', 'stall', 'stall'),
  midStream('reset', 'drop', 'drop'),
  midStream('malformed', 'malformed', 'malformed'),
  midStream('truncated', 'truncate', 'truncate'),
  // Persistent (more than any retry budget): the page itself must be what the user is told about.
  burst('html 503', 503, { html: true, count: 10 }),
  burst('429+RA', 429, { retryAfterSeconds: 2 }),
  burst('429', 429),
  burst('500', 500),
  burst('502', 502),
  burst('503', 503),
  burst('504', 504),
  {
    id: '401 expired',
    notApplicable: network(),
    inject: (world, feature) => {
      // The console's JWT really expires; an inference API key (no expiry) is rejected instead.
      if (CONSOLE.has(feature.id) && feature.id !== 'PAT exchange') world.sandbox.control.expireTokens();
      else world.sandbox.control.burst({ status: 401, count: 10, pathPrefix: feature.path });
    },
  },
  burst('403', 403, { count: 10 }),
  {
    id: 'activity failed',
    notApplicable: (f) => (f.id === 'write + follow' ? undefined : 'starts no console activity'),
    inject: (world) => world.sandbox.control.failActivities({ next: 1, reason: 'quota exceeded (matrix)' }),
  },
  {
    id: 'activity stuck',
    notApplicable: (f) => (f.id === 'write + follow' ? undefined : 'starts no console activity'),
    inject: (world) => world.sandbox.control.slowActivities(100_000),
  },
  {
    id: 'disk full',
    disk: 'full',
    notApplicable: (f) => (WRITES_FILES.has(f.id) ? undefined : 'writes no file'),
    inject: () => undefined,
  },
  {
    id: 'unwritable',
    disk: 'unwritable',
    notApplicable: (f) => (WRITES_FILES.has(f.id) ? undefined : 'writes no file'),
    inject: () => undefined,
  },
];
