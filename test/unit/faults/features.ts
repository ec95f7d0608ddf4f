// The features of the matrix, each run the way its user-facing code runs it, reduced to one
// Outcome: what the user is left with (an answer, a partial answer marked incomplete, a typed
// error and its actions, or nothing shown at all for ghost text).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgent, type AgentOutcome } from '../../../src/core/agent';
import { ActivityFailedError, ActivityStillRunningError, createConsoleClient, type ConsoleClient } from '../../../src/core/console/index';
import { isStratusError } from '../../../src/core/errors';
import type { Logger } from '../../../src/core/log';
import { createInferenceClient, type ChatStreamEvent, type InferenceClient } from '../../../src/core/inference';
import { InlineCompletionEngine } from '../../../src/core/inlineCompletion/engine';
import { presentError } from '../../../src/core/presentError';
import { createMeteredInferenceClient } from '../../../src/core/usage/meteredClient';
import { UsageMeter } from '../../../src/core/usage/meter';
import { UsageStore } from '../../../src/core/usage/store';
import { activityTimeoutMs } from '../../../src/core/console/activities/followDeadline';
import { writeFailureActions } from '../../../src/features/resources/writeFailure';
import { toneWav } from '../transcription/audio';
import { drive, type World } from './harness';

export type Outcome =
  | { kind: 'ok'; detail: string }
  /** Part of the answer was delivered and kept; the error says it is incomplete. */
  | { kind: 'partial'; error: string; kept: string; actions: string[]; message: string }
  | { kind: 'error'; error: string; actions: string[]; message: string }
  /** Ghost text: nothing shown (the user keeps typing), with or without one stop notification. */
  | { kind: 'silent'; detail: string };

/** What a feature run leaves for the cell's checks besides its outcome. */
export interface Run {
  outcome: Outcome;
  elapsedMs: number;
  /** Requests that reached the sandbox on the feature's own endpoint. */
  requests: number;
  /** Everything that went out as a user-visible string (messages, chat text, notifications). */
  shown: string[];
  /** Feature-specific invariants ("no state lost"), as failures; empty when all hold. */
  violations: string[];
  /** The error the feature got, whole (the secrets sweep reads its stack and causes too). */
  error?: unknown;
}

export interface FeatureContext {
  world: World;
  logger: Logger;
  /** Called after the feature's warm-up (sign-in, ...) to inject the cell's fault. */
  inject: () => void;
  /** A scratch directory removed after the case. */
  dir: () => string;
  /** A storage fault for features that write files (the usage store). */
  disk?: 'full' | 'unwritable' | undefined;
}

export interface Feature {
  id: string;
  /** The endpoint the faults target. */
  path: string;
  /** Whether mid-stream faults hit an SSE stream, a JSON body, or nothing this feature reads. */
  body: 'sse' | 'json';
  /** Longest fake time a case may take. */
  boundMs: number;
  run(ctx: FeatureContext): Promise<Run>;
}

export const CHAT_MODEL = 'gpt-oss:120b';
export const BOUND = 5 * 60_000;

export function errorOutcome(error: unknown, partialText = ''): Outcome {
  const presented = presentError(error);
  const kind = isStratusError(error) ? error.kind : error instanceof ActivityFailedError || error instanceof ActivityStillRunningError ? error.kind : 'unexpected';
  if (partialText) return { kind: 'partial', error: kind, kept: partialText, actions: [...presented.actions], message: presented.message };
  return { kind: 'error', error: kind, actions: [...presented.actions], message: presented.message };
}

export function inference(ctx: FeatureContext): InferenceClient {
  const { sandbox } = ctx.world;
  return createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), logger: ctx.logger, fetch: ctx.world.fetch });
}

function consoleClient(ctx: FeatureContext): ConsoleClient {
  const { sandbox } = ctx.world;
  return createConsoleClient({
    baseUrl: sandbox.consoleUrl,
    pat: { id: async () => sandbox.credentials.patId, secret: async () => sandbox.credentials.patSecret },
    logger: ctx.logger,
    fetch: ctx.world.fetch,
  });
}

export function logged(logger: Logger, pattern: RegExp): boolean {
  const lines = (logger as Logger & { lines?: Array<{ message: string }> }).lines ?? [];
  return lines.some((l) => pattern.test(l.message));
}

export function count(world: World, path: string, method?: string): number {
  return world.sandbox.control.requests({ pathPrefix: path }).filter((r) => method === undefined || r.method === method).length;
}

export async function withClose<C extends { close(): Promise<void> }, T>(client: C, body: (c: C) => Promise<T>): Promise<T> {
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

const chat: Feature = {
  id: 'chat stream',
  path: '/v1/chat/completions',
  body: 'sse',
  boundMs: BOUND,
  run: (ctx) =>
    withClose(inference(ctx), async (client) => {
      ctx.inject();
      let text = '';
      const driven = await drive(ctx.world, () =>
        client.chatStream({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'long 12' }] }).consume((e: ChatStreamEvent) => {
          ctx.world.progress += 1;
          if (e.type === 'text') text += e.text;
        }), chat.boundMs);
      const outcome: Outcome = driven.error === undefined ? { kind: 'ok', detail: `${text.length} chars` } : errorOutcome(driven.error, text);
      return { outcome, elapsedMs: driven.elapsedMs, requests: count(ctx.world, chat.path), shown: [text, outcome.kind === 'ok' ? '' : (outcome as { message: string }).message], violations: [], error: driven.error };
    }),
};

const WEATHER = 'Call get_weather with {"city":"Paris"}';

const agent: Feature = {
  id: 'agent loop',
  path: '/v1/chat/completions',
  body: 'sse',
  boundMs: BOUND,
  run: (ctx) =>
    withClose(inference(ctx), async (client) => {
      let toolRuns = 0;
      let text = '';
      const driven = await drive(ctx.world, () =>
        runAgent({
          client,
          model: CHAT_MODEL,
          messages: [{ role: 'user', content: WEATHER }],
          tools: [{ name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
          invoker: {
            invoke: () => {
              toolRuns += 1;
              // The fault hits the round that carries the tool's result back.
              ctx.inject();
              return Promise.resolve({ content: 'Sunny, 21 C' });
            },
          },
          onEvent: (e) => {
            ctx.world.progress += 1;
            if (e.type === 'text') text += e.text;
          },
        }), agent.boundMs);
      if (driven.error !== undefined) throw driven.error; // runAgent never throws
      const out = driven.value as AgentOutcome;
      const violations: string[] = [];
      if (toolRuns !== 1) violations.push(`the tool ran ${toolRuns} times`);
      const toolMessage = out.messages.find((m) => m.role === 'tool');
      if (!toolMessage || toolMessage.content !== 'Sunny, 21 C') violations.push('the tool result is not kept in the turn\'s messages');
      const calls = out.messages.find((m) => m.role === 'assistant' && m.tool_calls?.length);
      if (!calls) violations.push('the assistant tool call is not kept');
      let outcome: Outcome;
      if (out.status === 'answered') outcome = { kind: 'ok', detail: `${out.rounds} rounds` };
      else if (out.status === 'error') outcome = errorOutcome(out.error, out.text || text);
      else outcome = { kind: 'error', error: out.status, actions: [], message: out.message ?? out.status };
      return { outcome, elapsedMs: driven.elapsedMs, requests: count(ctx.world, agent.path), shown: [text, 'message' in outcome ? outcome.message : '', JSON.stringify(out.messages)], violations, error: out.error };
    }),
};

const inline: Feature = {
  id: 'inline completion',
  path: '/v1/completions',
  body: 'sse',
  boundMs: BOUND,
  run: (ctx) =>
    withClose(inference(ctx), async (client) => {
      const stops: string[] = [];
      const clock = ctx.world.clock;
      const engine = new InlineCompletionEngine({
        // As the controller calls it (src/features/inlineCompletion/controller.ts).
        complete: (request, signal) => client.completeStream(request, { signal, purpose: 'inline' }),
        model: () => ({ id: 'qwen3-coder:30b', maxModelLen: 8192 }),
        timers: clock,
        now: () => clock.now,
        debounceMs: 100,
        onStop: (state) => stops.push(state.kind === 'stopped' ? state.reason : state.kind),
      });
      ctx.inject();
      const text = 'const total = ';
      const driven = await drive(ctx.world, () => engine.provide({ id: 'file:///ws/a.ts', languageId: 'typescript', relativePath: 'a.ts', text: `${text};\n`, offset: text.length }), inline.boundMs);
      if (driven.error !== undefined) throw driven.error; // provide() never throws
      const items = driven.value;
      const state = engine.backoff.admit(clock.now).state;
      const outcome: Outcome = items?.length
        ? { kind: 'ok', detail: items[0]?.insertText ?? '' }
        : { kind: 'silent', detail: `${state.kind}${stops.length ? ` notified:${stops.join(',')}` : ''}` };
      const violations: string[] = [];
      if (stops.length > 1) violations.push(`${stops.length} stop notifications`);
      return { outcome, elapsedMs: driven.elapsedMs, requests: count(ctx.world, inline.path), shown: [items?.[0]?.insertText ?? ''], violations };
    }),
};

function jsonFeature(id: string, path: string, call: (client: InferenceClient) => Promise<string>): Feature {
  const feature: Feature = {
    id,
    path,
    body: 'json',
    boundMs: BOUND,
    run: (ctx) =>
      withClose(inference(ctx), async (client) => {
        ctx.inject();
        const driven = await drive(ctx.world, () => call(client), feature.boundMs);
        const outcome: Outcome = driven.error === undefined ? { kind: 'ok', detail: driven.value ?? '' } : errorOutcome(driven.error);
        return { outcome, elapsedMs: driven.elapsedMs, requests: count(ctx.world, path), shown: ['message' in outcome ? outcome.message : ''], violations: [], error: driven.error };
      }),
  };
  return feature;
}

const rerank = jsonFeature('rerank', '/v1/rerank', async (c) => {
  const r = await c.rerank({ model: 'qwen3-reranker:4b', query: 'fault matrix', documents: ['a fault matrix', 'a recipe', 'a matrix of faults'] });
  return `${r.results.length} results`;
});
const embeddings = jsonFeature('embeddings', '/v1/embeddings', async (c) => {
  const r = await c.embed({ model: 'bge-m3:567m', input: ['one', 'two'] });
  return `${r.embeddings.length} vectors`;
});
const transcription = jsonFeature('transcription', '/v1/audio/transcriptions', async (c) => {
  const r = await c.transcribe({ file: toneWav(2), filename: 'tone.wav', contentType: 'audio/wav' });
  return `${r.segments.length} segments`;
});

const resourceList: Feature = {
  id: 'resource list',
  path: '/api/compute',
  body: 'json',
  boundMs: BOUND,
  run: (ctx) =>
    withClose(consoleClient(ctx), async (client) => {
      await drive(ctx.world, () => client.auth.signIn(), resourceList.boundMs);
      ctx.inject();
      const driven = await drive(ctx.world, () => client.list('virtualMachines'), resourceList.boundMs);
      const outcome: Outcome = driven.error === undefined ? { kind: 'ok', detail: `${driven.value?.items.length ?? 0} items` } : errorOutcome(driven.error);
      const violations: string[] = [];
      if (client.auth.session === undefined && outcome.kind === 'ok') violations.push('signed out after a successful list');
      return { outcome, elapsedMs: driven.elapsedMs, requests: count(ctx.world, resourceList.path), shown: ['message' in outcome ? outcome.message : '', JSON.stringify(driven.value?.items.map((i) => i.name) ?? [])], violations, error: driven.error };
    }),
};

const writeFollow: Feature = {
  id: 'write + follow',
  path: '/api/compute',
  body: 'json',
  boundMs: 40 * 60_000,
  run: (ctx) =>
    withClose(consoleClient(ctx), async (client) => {
      await drive(ctx.world, () => client.auth.signIn(), writeFollow.boundMs);
      // As in the Cloud view, the collection was read before the write (which proves its path):
      // the fault meets the write itself.
      await drive(ctx.world, () => client.list('virtualMachines', { limit: 1 }), writeFollow.boundMs);
      // A second later, as a person clicks: the write does not wait on the rate limiter's spacing.
      await ctx.world.clock.tickAsync(1_000);
      ctx.inject();
      let phase: 'write' | 'follow' = 'write';
      const driven = await drive(ctx.world, async () => {
        const write = await client.perform('virtualMachines', 'create', { input: { name: 'matrix-vm', cpu: 2, memoryGiB: 4 } });
        phase = 'follow';
        return client.activities.follow(write.activityId, { timeoutMs: activityTimeoutMs(undefined) });
      }, writeFollow.boundMs);
      // Refused POSTs (429, 401: provably not applied) may be sent again; one that the server may
      // have acted on never is.
      const posts = ctx.world.sandbox.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method === 'POST');
      const acted = posts.filter((r) => r.status !== 429 && r.status !== 401).length;
      const violations: string[] = [];
      if (acted > 1) violations.push(`${acted} POSTs the server may have acted on, for one write`);
      const outcome = writeOutcome(phase, driven.error, driven.value?.state.kind);
      return { outcome, elapsedMs: driven.elapsedMs, requests: posts.length, shown: ['message' in outcome ? outcome.message : ''], violations, error: driven.error };
    }),
};

/**
 * What the Cloud view's write flow (features/resources/writeFlow.ts) tells the user: a write that
 * failed before its activity id came back offers what the write policy allows; once the activity
 * exists, a failed activity says why, a deadline or a broken follow points to the Activities view.
 */
function writeOutcome(phase: 'write' | 'follow', error: unknown, state: string | undefined): Outcome {
  if (error === undefined) return { kind: 'ok', detail: state ?? '' };
  if (phase === 'write') {
    const base = errorOutcome(error);
    return base.kind === 'error' ? { ...base, actions: writeFailureActions(error, base.actions as never) } : base;
  }
  if (error instanceof ActivityFailedError) return { kind: 'error', error: error.kind, actions: ['showLog', 'retry'], message: `Create VM failed: ${error.reason ?? 'no reason given'}` };
  if (error instanceof ActivityStillRunningError) return { kind: 'error', error: error.kind, actions: ['openActivities'], message: 'Create VM is still running on the server; Stratus stopped following it.' };
  const presented = presentError(error);
  return { kind: 'error', error: `follow stopped (${isStratusError(error) ? error.kind : 'unexpected'})`, actions: ['openActivities'], message: `Stopped following Create VM; the operation continues on the server (${presented.message})` };
}

const patExchange: Feature = {
  id: 'PAT exchange',
  path: '/api/iam/v2/auth/personal_access_token',
  body: 'json',
  boundMs: BOUND,
  run: (ctx) =>
    withClose(consoleClient(ctx), async (client) => {
      ctx.inject();
      const driven = await drive(ctx.world, () => client.auth.signIn(), patExchange.boundMs);
      const outcome: Outcome = driven.error === undefined ? { kind: 'ok', detail: driven.value?.tenantId ?? '' } : errorOutcome(driven.error);
      return { outcome, elapsedMs: driven.elapsedMs, requests: count(ctx.world, patExchange.path), shown: ['message' in outcome ? outcome.message : '', JSON.stringify(client.auth.session ?? {})], violations: [], error: driven.error };
    }),
};

/**
 * Usage store: a metered chat stream under the fault, then the events read back from disk by a
 * second window's store. Whatever arrived is counted once and persisted (nothing lost).
 */
const usageStore: Feature = {
  id: 'usage store',
  path: '/v1/chat/completions',
  body: 'sse',
  boundMs: BOUND,
  run: async (ctx) => {
    const { sandbox, clock } = ctx.world;
    const root = ctx.dir();
    const dir = join(root, 'usage');
    if (ctx.disk === 'full') {
      // Every append to this writer's file fails with ENOSPC, as on a full disk.
      mkdirSync(dir);
      symlinkSync('/dev/full', join(dir, 'events-w1.0.jsonl'));
    } else if (ctx.disk === 'unwritable') {
      // The storage folder cannot be created (a file is in the way: ENOTDIR/EEXIST).
      writeFileSync(join(root, 'blocker'), '');
    }
    const storeDir = ctx.disk === 'unwritable' ? join(root, 'blocker', 'usage') : dir;
    const store = new UsageStore({ dir: storeDir, timeZone: 'UTC', now: () => clock.now, writerId: 'w1' });
    const meter = new UsageMeter({ store, timeZone: 'UTC', now: () => clock.now, logger: ctx.logger });
    const client = createMeteredInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), logger: ctx.logger, fetch: ctx.world.fetch, onUsage: meter.listener, usageNow: () => clock.now });
    return withClose(client, async () => {
      ctx.inject();
      let text = '';
      let received = 0;
      const driven = await drive(ctx.world, () => client.chatStream({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'long 12' }] }).consume((e) => {
        ctx.world.progress += 1;
        received += 1;
        if (e.type === 'text') text += e.text;
      }), usageStore.boundMs);
      const violations: string[] = [];
      if (ctx.disk) {
        const failed = await meter.flush().then(() => false, () => true);
        if (!failed) violations.push('the write to a broken storage did not fail');
        if (!logged(ctx.logger, /Usage: could not update the usage files/)) violations.push('no warning logged for the failed write');
        // The storage comes back: the events kept in memory are written then.
        if (ctx.disk === 'full') rmSync(join(dir, 'events-w1.0.jsonl'));
        else rmSync(join(root, 'blocker'));
      }
      await meter.flush();
      const live = meter.ledgerCopy().size;
      const persisted = (await new UsageStore({ dir: storeDir, timeZone: 'UTC', now: () => clock.now }).load()).ledger.size;
      const requests = count(ctx.world, usageStore.path);
      if (received > 0 && live === 0) violations.push('part of an answer arrived but was not metered');
      if (live !== persisted) violations.push(`${live} events metered, ${persisted} on disk`);
      const outcome: Outcome = driven.error === undefined ? { kind: 'ok', detail: `${persisted} events stored` } : errorOutcome(driven.error, text);
      // The Usage view's page is sent the snapshot: it is an output too.
      return { outcome, elapsedMs: driven.elapsedMs, requests, shown: [text, 'message' in outcome ? outcome.message : '', JSON.stringify(meter.snapshot())], violations, error: driven.error };
    });
  },
};

/** The features that were there first; allFeatures.ts adds the editor features and the search index. */
export const BASE_FEATURES: readonly Feature[] = [chat, agent, inline, rerank, embeddings, transcription, resourceList, writeFollow, patExchange, usageStore];

export function scratchDirs(): { dir: () => string; cleanup: () => void } {
  const made: string[] = [];
  return {
    dir: () => {
      const d = mkdtempSync(join(tmpdir(), 'stratus-faults-'));
      made.push(d);
      return d;
    },
    cleanup: () => {
      for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}
