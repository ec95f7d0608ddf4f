import * as assert from 'node:assert/strict';
import { estimateTextTokens } from '../../../src/core/inference';
import { SAFETY_TOKENS, type ContextSnippet } from '../../../src/core/inlineCompletion/prompt';
import { buildNextEditPrompt, NEXT_EDIT_SYSTEM, type NextEditPromptInput } from '../../../src/core/nextEdit/prompt';
import { CURSOR_MARKER, editWindow } from '../../../src/core/nextEdit/window';

const TEXT = Array.from({ length: 60 }, (_, k) => `const v${k} = f(${k});`).join('\n');
const CURSOR = TEXT.indexOf('v30') + 1;

function input(over: Partial<NextEditPromptInput> = {}): NextEditPromptInput {
  const window = editWindow(TEXT, CURSOR, { linesAbove: 2, linesBelow: 2, maxChars: 1_000 });
  assert.ok(window);
  return { languageId: 'typescript', relativePath: 'src/a.ts', text: TEXT, window, edits: [], budget: { maxModelLen: 8_192 }, ...over };
}

const user = (p: ReturnType<typeof buildNextEditPrompt>): string => String(p?.messages[1]?.content ?? '');

describe('core/nextEdit buildNextEditPrompt', () => {
  it('is one system and one user message: recent edits, definitions, lines around, the marked window in its tags', () => {
    const snippet: ContextSnippet = { kind: 'definition', path: 'src/f.ts', text: 'export function f(n: number): number {', priority: 1 };
    const p = buildNextEditPrompt(input({ edits: ['--- src/a.ts\n+++ src/a.ts\n@@ -1,1 +1,1 @@\n-x\n+y\n'], snippets: [snippet] }));
    assert.ok(p);
    assert.deepEqual(p.messages.map((m) => m.role), ['system', 'user']);
    assert.equal(p.messages[0]?.content, NEXT_EDIT_SYSTEM);
    const text = user(p);
    const order = ['Recent edits', '<edits>\n--- src/a.ts', 'Definitions from other files', 'src/f.ts (definition)', '<before>', '<window>', '</window>', '<after>'].map((s) => text.indexOf(s));
    assert.ok(order.every((at, k) => at >= 0 && (k === 0 || at > (order[k - 1] ?? 0))), JSON.stringify(order));
    assert.match(text, /The window \(lines 29-33\):\n<window>\nconst v28 = f\(28\);\nconst v29 = f\(29\);\nconst v<CURSOR>30/);
    assert.ok(text.includes(`v${CURSOR_MARKER}30`.replace('v', 'const v')));
    assert.ok(text.includes('<before>\nconst v8 = f(8);'), 'twenty lines above');
    assert.ok(text.includes('const v52 = f(52);\n</after>'), 'twenty lines below');
    assert.equal(p.key, JSON.stringify([p.maxTokens, text]));
  });

  it('leaves out a snippet the last gate refuses, and an empty one', () => {
    const snippets: ContextSnippet[] = [
      { kind: 'definition', path: 'secret/env.ts', text: 'export const KEY = 1;', priority: 2 },
      { kind: 'definition', path: 'src/empty.ts', text: '  ', priority: 1 },
    ];
    const p = buildNextEditPrompt(input({ snippets, includeSnippet: (s) => !s.path.startsWith('secret/') }));
    assert.ok(p);
    assert.ok(!user(p).includes('KEY'));
    assert.equal(p.trimmed.snippetsDropped, 2);
  });

  it('stays within the budget: older edits go first, then far lines, then definitions', () => {
    const edits = Array.from({ length: 30 }, (_, k) => `@@ -${k},1 +${k},1 @@\n-old line number ${k} with some text\n+new line number ${k} with some text\n`);
    const snippets: ContextSnippet[] = [{ kind: 'definition', path: 'src/f.ts', text: 'export function f(n: number): number { return n; }\n'.repeat(10), priority: 1 }];
    const maxModelLen = 1_000;
    const p = buildNextEditPrompt(input({ edits, snippets, budget: { maxModelLen } }));
    assert.ok(p);
    assert.ok(p.promptTokens + p.maxTokens + SAFETY_TOKENS <= maxModelLen, `${p.promptTokens} + ${p.maxTokens}`);
    assert.ok(p.trimmed.editsDropped > 0 && p.trimmed.editsDropped < 30);
    assert.ok(user(p).includes('+new line number 29 '), 'the newest edit is kept');
    assert.ok(!user(p).includes('+new line number 0 '), 'the oldest is dropped');
    assert.equal(p.trimmed.snippetsDropped, 1);
  });

  it('asks for the window\'s rewrite as the answer budget, and gives up when the window does not fit', () => {
    const p = buildNextEditPrompt(input());
    assert.ok(p);
    assert.ok(p.maxTokens >= estimateTextTokens(input().window.text));
    assert.equal(buildNextEditPrompt(input({ budget: { maxModelLen: 200 } })), undefined);
  });
});
