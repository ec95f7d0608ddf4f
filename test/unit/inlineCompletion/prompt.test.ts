import * as assert from 'node:assert/strict';
import { estimateMessageTokens } from '../../../src/core/inference';
import { decideMode } from '../../../src/core/inlineCompletion/mode';
import { buildPrompt, CURSOR_MARKER, MULTI_LINE_MAX_TOKENS, SINGLE_LINE_MAX_TOKENS, type ContextSnippet, type PromptInput } from '../../../src/core/inlineCompletion/prompt';

function lines(tag: string, n: number): string {
  return Array.from({ length: n }, (_, k) => `const ${tag}${k} = ${k}; // line ${k} of ${tag}\n`).join('');
}

function input(over: Partial<PromptInput> = {}): PromptInput {
  const prefix = over.prefix ?? 'function f() {\n  return ';
  const suffix = over.suffix ?? ';\n}\n';
  return { prefix, suffix, languageId: 'typescript', relativePath: 'src/f.ts', mode: decideMode(prefix, suffix), budget: { maxModelLen: 8192 }, ...over };
}

function user(built: ReturnType<typeof buildPrompt>): string {
  const content = built.messages[1]?.content;
  assert.equal(typeof content, 'string');
  return content as string;
}

describe('core/inlineCompletion buildPrompt', () => {
  it('uses the chat format: a system instruction and one user message with the marker, language and path', () => {
    const built = buildPrompt(input());
    assert.deepEqual(built.messages.map((m) => m.role), ['system', 'user']);
    const text = user(built);
    assert.match(text, /^Language: typescript\nFile: src\/f\.ts\n/);
    assert.ok(text.endsWith(`function f() {\n  return ${CURSOR_MARKER};\n}\n`));
    assert.equal(built.maxTokens, SINGLE_LINE_MAX_TOKENS);
    assert.equal(buildPrompt(input({ prefix: 'if (x) {', suffix: '' })).maxTokens, MULTI_LINE_MAX_TOKENS);
    assert.deepEqual(built.trimmed, { prefixChars: 0, suffixChars: 0, snippetsDropped: 0 });
  });

  it('fits a huge file into the budget, keeping the text nearest the cursor', () => {
    const prefix = `${lines('far', 2000)}${lines('near', 5)}  const x = `;
    const suffix = `;\n${lines('after', 2000)}`;
    const built = buildPrompt(input({ prefix, suffix, budget: { maxModelLen: 2048, maxTokens: 32 } }));
    const used = built.messages.reduce((n, m) => n + estimateMessageTokens(m), 0);
    assert.ok(used + 32 <= 2048, `prompt ${used} + 32 must fit 2048`);
    assert.equal(used, built.promptTokens);
    const text = user(built);
    assert.ok(text.includes(`const near4 = 4; // line 4 of near\n  const x = ${CURSOR_MARKER};\nconst after0`));
    assert.ok(!text.includes('far0 '), 'the far prefix goes first');
    assert.ok(built.trimmed.prefixChars > 0 && built.trimmed.suffixChars > 0);
    assert.match(text, /File content:\nconst /, 'cut at a line start');
  });

  it('caps the prompt for latency even when the model admits more', () => {
    const prefix = lines('p', 5000);
    const built = buildPrompt(input({ prefix, suffix: '', budget: { maxModelLen: 1_000_000, maxPromptTokens: 1000 } }));
    assert.ok(built.promptTokens <= 1000);
  });

  it('adds snippets by priority and drops the low-priority ones that do not fit', () => {
    const snippets: ContextSnippet[] = [1, 2, 3, 4, 5, 6].map((p) => ({ kind: 'openEditor', path: `src/p${p}.ts`, text: lines(`p${p}_`, 60), priority: p }));
    snippets.push({ kind: 'definition', path: 'src/def.ts', text: 'export function helper(a: number): number;', priority: 9 });
    const built = buildPrompt(input({ snippets, budget: { maxModelLen: 1200, maxTokens: 32 } }));
    const text = user(built);
    const kept = [1, 2, 3, 4, 5, 6].filter((p) => text.includes(`src/p${p}.ts`));
    assert.ok(kept.length > 0 && kept.length < 6, `some kept, some dropped: ${kept.join(',')}`);
    assert.deepEqual(kept, [6, 5, 4, 3, 2, 1].slice(0, kept.length).sort(), 'the lowest priorities go first');
    assert.ok(text.indexOf('src/def.ts (definition)') < text.indexOf('src/p6.ts (open editor)'), 'highest priority first');
    assert.equal(built.trimmed.snippetsDropped, 6 - kept.length);
    assert.ok(built.promptTokens + 32 <= 1200);
    const all = buildPrompt(input({ snippets, budget: { maxModelLen: 32_000, maxPromptTokens: 32_000 } }));
    assert.equal(all.trimmed.snippetsDropped, 0);
  });

  it('leaves out a snippet the predicate refuses, and empty ones', () => {
    const snippets: ContextSnippet[] = [
      { kind: 'openEditor', path: 'secret/.env.ts', text: 'const a = 1;', priority: 9 },
      { kind: 'openEditor', path: 'src/ok.ts', text: 'const b = 2;', priority: 1 },
      { kind: 'openEditor', path: 'src/empty.ts', text: '  \n', priority: 1 },
    ];
    const built = buildPrompt(input({ snippets, includeSnippet: (s) => !s.path.startsWith('secret/') }));
    assert.ok(!user(built).includes('secret/'));
    assert.ok(user(built).includes('src/ok.ts'));
    assert.equal(built.trimmed.snippetsDropped, 2);
  });

  it('gives the same key for the same prompt and another for a different one', () => {
    assert.equal(buildPrompt(input()).key, buildPrompt(input()).key);
    assert.notEqual(buildPrompt(input()).key, buildPrompt(input({ prefix: 'function f() {\n  return x' })).key);
  });
});
