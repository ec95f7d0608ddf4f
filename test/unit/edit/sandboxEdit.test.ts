import * as assert from 'node:assert/strict';
import { buildEditPrompt, EditSession, streamEdit, type EditPromptInput, type RowEdit } from '../../../src/core/edit';
import { UsageCapError } from '../../../src/core/errors';
import type { InferenceClient } from '../../../src/core/inference';
import type { UsageEvent } from '../../../src/core/usage/events';
import { createCapGuard } from '../../../src/core/usage/guard';
import { createMeteredInferenceClient } from '../../../src/core/usage/meteredClient';
import { UsageMeter } from '../../../src/core/usage/meter';
import { parseUsageSettings } from '../../../src/core/usage/settings';
import { startSandbox, type Sandbox, type SandboxProfile } from '../../sandbox/index';
import { eventually } from '../sandbox/helpers';
import { applyRowEdits } from './docModel';

const NOW = Date.parse('2026-04-14T10:20:00Z');
const MODEL = 'gpt-oss:120b';
const RANGE = ['  function total(value) {', '    const tax = value * 0.2;', '    return value + tax;', '  }'];

function prompt(instruction: string, range = RANGE): ReturnType<typeof buildEditPrompt> {
  const input: EditPromptInput = { instruction, languageId: 'javascript', relativePath: 'src/a.js', before: ['class A {'], range, after: ['}'], startLine: 1, diagnostics: [], instructions: '', maxModelLen: 131_072 };
  return buildEditPrompt(input);
}

for (const profile of ['contract', 'production'] as SandboxProfile[]) {
  describe(`core/edit against the sandbox (${profile})`, function () {
    let sandbox: Sandbox;
    let client: InferenceClient;
    let events: UsageEvent[];
    let meter: UsageMeter;

    before(async () => {
      sandbox = await startSandbox({ port: 0, profile });
      client = createMeteredInferenceClient({
        baseUrl: sandbox.inferenceUrl,
        apiKey: () => Promise.resolve(sandbox.credentials.apiKey),
        retry: { attempts: 1 },
        onUsage: (e) => {
          events.push(e);
          meter.record(e);
        },
        beforeGeneration: createCapGuard({ snapshot: () => meter.snapshot(), settings: () => parseUsageSettings({ tier: 'tier1' }), now: () => NOW }),
        usageNow: () => NOW,
      });
    });
    after(async () => {
      await client.close();
      await sandbox.close();
    });
    beforeEach(() => {
      events = [];
      meter = new UsageMeter({ timeZone: 'UTC', settings: () => parseUsageSettings({ tier: 'tier1' }), now: () => NOW });
      sandbox.control.reset();
    });

    async function run(instruction: string, signal = new AbortController().signal, range = RANGE, model = MODEL): Promise<{ session: EditSession; rows: string[]; truncated: boolean }> {
      const session = new EditSession(range);
      const rows = [...range];
      const { truncated } = await streamEdit({ client, model, prompt: prompt(instruction, range), session, signal, onEdits: (e: RowEdit[]) => applyRowEdits(rows, e) });
      return { session, rows, truncated };
    }

    it('a range holding special tokens: Accept All keeps every one of them (issue 40)', async () => {
      const range = ['  const STOP = ["<|end|>", "<|return|>", "<|call|>", "<|endoftext|>"]; // and <|eot_id|>', '  function total(value) {', '    return `<|start|>assistant<|channel|>final<|message|>${value}<|eom_id|>`;', '  }'];
      const { session, rows } = await run('rename value to amount', undefined, range, 'qwen3-coder:30b');
      applyRowEdits(rows, session.acceptAll());
      assert.deepEqual(rows, range.map((l) => l.replace(/\bvalue\b/g, 'amount')));
    });

    it('an answer whose <think> never closed (the range echoed "<think>"): nothing is applied, the request fails (issue 40)', async () => {
      const range = ['  const open = "<think>";', ...RANGE];
      const session = new EditSession(range);
      const rows = [...range];
      await assert.rejects(streamEdit({ client, model: 'qwen3-coder:30b', prompt: prompt('rename value to amount', range), session, signal: new AbortController().signal, onEdits: (e) => applyRowEdits(rows, e) }), (e: Error) => e.name === 'MalformedResponseError' && /<think>/.test(e.message));
      applyRowEdits(rows, session.rejectAll());
      assert.deepEqual(rows, range);
    });

    it('streams the rewrite into hunks; accepted, the range is the rewrite; metered as kind edit', async () => {
      const { session, rows, truncated } = await run('rename value to amount and add documentation, chatty');
      assert.equal(truncated, false);
      applyRowEdits(rows, session.acceptAll());
      assert.deepEqual(rows, [
        '  // rename value to amount and add documentation, chatty',
        '  function total(amount) {',
        '    const tax = amount * 0.2;',
        '    return amount + tax;',
        '  }',
      ]);
      const edits = events.filter((e) => e.kind === 'edit');
      assert.equal(edits.length, 1);
      assert.equal(events.filter((e) => e.kind === 'chat').length, 0, 'not counted as chat');
      assert.ok(edits[0]?.kind === 'edit' && edits[0].completionTokens > 0);
    });

    it('rejected, the range is the original again', async () => {
      const { session, rows } = await run('delete lines containing tax');
      assert.deepEqual(session.hunks().map((h) => [h.removed, h.added]), [[2, 0]]);
      applyRowEdits(rows, session.rejectAll());
      assert.deepEqual(rows, RANGE);
    });

    it('cancelled while streaming: the request is aborted at once and the original is back', async () => {
      sandbox.control.injectStreamFault({ kind: 'stall', afterChunks: 4 });
      const controller = new AbortController();
      const session = new EditSession(RANGE);
      const rows = [...RANGE];
      const pending = streamEdit({ client, model: MODEL, prompt: prompt('rename value to amount'), session, signal: controller.signal, onEdits: (e) => applyRowEdits(rows, e) });
      await eventually(() => sandbox.control.requests({ pathPrefix: '/v1/chat' }).pop()?.chunksSent === 4);
      controller.abort();
      applyRowEdits(rows, session.rejectAll());
      await assert.rejects(pending, (e: Error) => e.name === 'CancelledError' || e.name === 'AbortError');
      await eventually(() => sandbox.control.requests({ pathPrefix: '/v1/chat' }).pop()?.clientClosedEarly === true);
      assert.deepEqual(rows, RANGE);
    });

    it('waits at the tier cap like chat: no request is sent when the hour is used up', async () => {
      meter.record({ kind: 'chat', at: NOW, model: MODEL, promptTokens: 0, completionTokens: 150_000, reasoningTokens: 0, estimated: false });
      sandbox.control.clearRequests();
      await assert.rejects(run('rename value to amount'), UsageCapError);
      assert.equal(sandbox.control.requests({ pathPrefix: '/v1/chat' }).length, 0);
    });
  });
}
