// The editor features of the matrix (edit by instruction, commit message, a document page read by
// OCR), each run through its core the way its command runs it (src/features/edit/command.ts,
// src/features/commitMessage/register.ts, src/features/documents), reduced to an Outcome.
import { buildCommitPrompt } from '../../../src/core/commitMessage/prompt';
import { writeCommitMessage } from '../../../src/core/commitMessage/generate';
import { documentMarkdown } from '../../../src/core/documents/markdown';
import { openDocument } from '../../../src/core/documents/open';
import type { PdfJs } from '../../../src/core/documents/pdf';
import { planPages } from '../../../src/core/documents/plan';
import { ocrReader, readPages } from '../../../src/core/documents/run';
import { buildEditPrompt, EditSession, streamEdit } from '../../../src/core/edit';
import { CancelledError } from '../../../src/core/errors';
import { presentError } from '../../../src/core/presentError';
import { applyRowEdits } from '../edit/docModel';
import { scanPng } from '../documents/fixtures';
import { BOUND, CHAT_MODEL, count, errorOutcome, inference, withClose, type Feature, type Outcome } from './features';
import { drive } from './harness';

const CHAT_PATH = '/v1/chat/completions';
const RANGE = ['function total(value) {', '  const tax = value * 0.2;', '  return value + tax;', '}'];
const RENAMED = ['function total(amount) {', '  const tax = amount * 0.2;', '  return amount + tax;', '}'];

/**
 * Edit by instruction: the rewrite streams into the document as a live diff; a request that fails
 * (or is cancelled) puts every row back (`rejectAll`) and says the range was left as it was, so
 * the document never keeps half a rewrite. A success is accepted and must be the whole rewrite.
 */
export const edit: Feature = {
  id: 'edit',
  path: CHAT_PATH,
  body: 'sse',
  boundMs: BOUND,
  run: (ctx) =>
    withClose(inference(ctx), async (client) => {
      const prompt = buildEditPrompt({ instruction: 'rename value to amount', languageId: 'javascript', relativePath: 'src/total.js', before: [], range: RANGE, after: [], startLine: 0, diagnostics: [], instructions: '', maxModelLen: 131_072 });
      const session = new EditSession(RANGE);
      const rows = [...RANGE];
      let rowEdits = 0;
      const controller = new AbortController();
      ctx.inject();
      const driven = await drive(ctx.world, () => streamEdit({ client, model: CHAT_MODEL, prompt, session, signal: controller.signal, onEdits: (edits) => {
        ctx.world.progress += 1;
        rowEdits += edits.length;
        applyRowEdits(rows, edits);
      } }), edit.boundMs);
      const violations: string[] = [];
      let outcome: Outcome;
      if (driven.error === undefined) {
        applyRowEdits(rows, session.acceptAll());
        if (rows.join('\n') !== RENAMED.join('\n')) violations.push(`accepted rewrite is ${JSON.stringify(rows)}`);
        outcome = { kind: 'ok', detail: `${session.hunks().length} hunks, ${rowEdits} row edits` };
      } else {
        applyRowEdits(rows, session.rejectAll());
        if (rows.join('\n') !== RANGE.join('\n')) violations.push(`after the failure the range is ${JSON.stringify(rows)}, not the original`);
        const base = errorOutcome(driven.error);
        // What the command adds to the notification (command.ts): the range is back as it was.
        outcome = 'message' in base ? { ...base, message: `${base.message} The range was left as it was.` } : base;
      }
      return { outcome, elapsedMs: driven.elapsedMs, requests: count(ctx.world, CHAT_PATH), shown: [rows.join('\n'), 'message' in outcome ? outcome.message : ''], violations, error: driven.error };
    }),
};

const DIFF = ['diff --git a/src/cart.ts b/src/cart.ts', 'index 1111111..2222222 100644', '--- a/src/cart.ts', '+++ b/src/cart.ts', '@@ -1,2 +1,3 @@', ' export const items = [];', '+export const total = () => items.length;', ' export default items;'].join('\n');
const OWN_TEXT = 'wip: my own draft';

/**
 * Commit message: the message streams into the SCM input box; a failure or a cancel puts back
 * what the person had typed there (register.ts) rather than half a message.
 */
export const commitMessage: Feature = {
  id: 'commit message',
  path: CHAT_PATH,
  body: 'sse',
  boundMs: BOUND,
  run: (ctx) =>
    withClose(inference(ctx), async (client) => {
      const prompt = buildCommitPrompt({ repositoryName: 'shop', source: 'staged', diff: DIFF, ignored: new Set(), untracked: [], recentMessages: ['feat: a', 'fix: b'], maxModelLen: 131_072 });
      let box = OWN_TEXT;
      let steps = 0;
      ctx.inject();
      const driven = await drive(ctx.world, () => writeCommitMessage(client, CHAT_MODEL, prompt, (text) => {
        ctx.world.progress += 1;
        steps += 1;
        box = text;
      }), commitMessage.boundMs);
      const violations: string[] = [];
      let outcome: Outcome;
      if (driven.error === undefined) {
        const message = driven.value?.message ?? '';
        if (message === '' || box !== message) violations.push(`the box holds ${JSON.stringify(box)}, the message is ${JSON.stringify(message)}`);
        outcome = { kind: 'ok', detail: `${message.length} chars in ${steps} steps` };
      } else {
        box = OWN_TEXT; // register.ts: the person's own text comes back
        outcome = errorOutcome(driven.error);
      }
      if (driven.error !== undefined && box !== OWN_TEXT) violations.push('the person\'s own text was not put back');
      return { outcome, elapsedMs: driven.elapsedMs, requests: count(ctx.world, CHAT_PATH), shown: [box, 'message' in outcome ? outcome.message : ''], violations, error: driven.error };
    }),
};

const OCR_MODEL = { id: 'deepseek-ocr:3b', maxModelLen: 8192 };
const PAGE_TEXT = '# Delivery note 42\n\nPallets: 3';
const noPdf = (): Promise<PdfJs> => Promise.reject(new Error('a PNG needs no PDF reader'));

/**
 * OCR page: a scanned page (a PNG whose marker the sandbox's OCR model reads) read through the
 * documents core (open, plan, the page pool, the OCR reader). A failed page keeps its reason in
 * the document view and the Markdown, and the others (none here) go on.
 */
export const ocrPage: Feature = {
  id: 'OCR page',
  path: CHAT_PATH,
  body: 'json',
  boundMs: BOUND,
  run: (ctx) =>
    withClose(inference(ctx), async (client) => {
      const source = await openDocument(scanPng({ markdown: PAGE_TEXT }), 'note.png', noPdf, OCR_MODEL.maxModelLen);
      const plan = planPages([await source.info(1)], 'auto');
      const reader = ocrReader(client, OCR_MODEL);
      let failure: unknown;
      ctx.inject();
      const driven = await drive(ctx.world, () => readPages({
        source,
        plan,
        model: OCR_MODEL.id,
        concurrency: 2,
        read: (image, signal, page) => reader(image, signal, page).catch((error: unknown) => {
          failure = error;
          throw error;
        }),
      }), ocrPage.boundMs);
      await source.close();
      if (driven.error !== undefined) throw driven.error; // readPages never throws but for a cancel
      const [page] = driven.value ?? [];
      const markdown = documentMarkdown('note.png', driven.value ?? []);
      const violations: string[] = [];
      if (plan[0]?.action !== 'ocr') violations.push(`the page was planned as ${plan[0]?.action}`);
      let outcome: Outcome;
      if (page?.status === 'done') {
        if (!page.markdown?.includes('Delivery note 42') || /<\|ref\|>|<\|det\|>/.test(page.markdown)) violations.push(`page Markdown ${JSON.stringify(page.markdown)}`);
        outcome = { kind: 'ok', detail: page.markdown ?? '' };
      } else {
        const base = errorOutcome(failure ?? new CancelledError('not read'));
        if (!page?.reason || page.reason !== presentError(failure).message) violations.push(`the page's reason is ${JSON.stringify(page?.reason)}`);
        if (!markdown.includes(page?.reason ?? '\u0000')) violations.push('the Markdown does not say why the page is missing');
        outcome = { ...base, message: page?.reason ?? '' } as Outcome;
        if (page?.status !== 'failed') violations.push(`the page ended ${page?.status}`);
      }
      return { outcome, elapsedMs: driven.elapsedMs, requests: count(ctx.world, CHAT_PATH), shown: [markdown, page?.reason ?? ''], violations, error: failure };
    }),
};
