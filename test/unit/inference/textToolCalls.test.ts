import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ContentDecoder } from '../../../src/core/inference/chat/contentDecoder';
import { OfferedTools } from '../../../src/core/inference/chat/offeredTools';
import type { RecoveredCall } from '../../../src/core/inference/chat/textToolCalls';
import type { ToolDefinition } from '../../../src/core/inference/chat/types';
import { cpuMicros } from '../properties/growth';
import { check } from '../properties/harness';
import { cut } from './helpers/cut';

const TOOLS: ToolDefinition[] = [
  { type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false } } },
  { type: 'function', function: { name: 'list_vms', parameters: { type: 'object', properties: { limit: { type: 'integer' } } } } },
];

interface Decoded {
  text: string;
  thinking: string;
  calls: Array<Omit<RecoveredCall, 'format'> & { format: string }>;
}

function decode(deltas: readonly string[], tools: readonly ToolDefinition[] | null = TOOLS): Decoded {
  const out: Decoded = { text: '', thinking: '', calls: [] };
  const decoder = new ContentDecoder(
    { onText: (t) => (out.text += t), onThinking: (t) => (out.thinking += t), onCall: (c) => out.calls.push(c) },
    { tools: tools ? new OfferedTools(tools) : undefined },
  );
  for (const d of deltas) decoder.push(d);
  decoder.flush();
  return out;
}

/** `text` cut at the given points. */

const READ = { name: 'read_file', arguments: '{"path":"src/a.ts"}' };

/** Each format as a model prints it, and what must come out. */
const CASES: ReadonlyArray<{ name: string; content: string; text: string; calls: Array<{ name: string; arguments: string; format: string }> }> = [
  { name: 'Hermes/Qwen <tool_call>', content: 'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>', text: 'Let me look.\n', calls: [{ ...READ, format: 'hermes' }] },
  { name: 'Hermes, two calls', content: '<tool_call>{"name":"read_file","arguments":{"path":"src/a.ts"}}</tool_call>\n<tool_call>{"name":"list_vms","arguments":{"limit":2}}</tool_call>', text: '\n', calls: [{ ...READ, format: 'hermes' }, { name: 'list_vms', arguments: '{"limit":2}', format: 'hermes' }] },
  { name: 'Hermes with string arguments', content: '<tool_call>{"name":"read_file","arguments":"{\\"path\\":\\"src/a.ts\\"}"}</tool_call>', text: '', calls: [{ ...READ, format: 'hermes' }] },
  { name: 'Qwen3-Coder function inside <tool_call>', content: '<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/a.ts\n</parameter>\n</function>\n</tool_call>', text: '', calls: [{ ...READ, format: 'hermes' }] },
  { name: 'Mistral [TOOL_CALLS][...]', content: '[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "src/a.ts"}}]', text: '', calls: [{ ...READ, format: 'mistral' }] },
  { name: 'Mistral [TOOL_CALLS]name[ARGS]', content: 'Reading.[TOOL_CALLS]read_file[ARGS]{"path": "src/a.ts"}', text: 'Reading.', calls: [{ ...READ, format: 'mistral' }] },
  { name: 'Llama <|python_tag|>', content: '<|python_tag|>{"name": "read_file", "parameters": {"path": "src/a.ts"}}<|eom_id|>', text: '', calls: [{ ...READ, format: 'llama' }] },
  { name: 'Llama bare JSON as the whole answer', content: '  {"name": "read_file", "parameters": {"path": "src/a.ts"}}\n', text: '  \n', calls: [{ ...READ, format: 'json' }] },
  { name: 'fenced json with one call, the answer\'s end', content: 'I will call it:\n```json\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n```\n', text: 'I will call it:\n\n', calls: [{ ...READ, format: 'fenced' }] },
  { name: 'fenced json with one call, the whole answer', content: '```json\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n```', text: '', calls: [{ ...READ, format: 'fenced' }] },
  { name: 'XML-ish <function=name>{json}', content: 'Sure. <function=read_file>{"path": "src/a.ts"}</function>', text: 'Sure. ', calls: [{ ...READ, format: 'xml' }] },
  { name: 'a call after a closed code block', content: 'The file:\n```ts\nconst a = `<tool_call>`;\n```\n<tool_call>{"name": "read_file", "arguments": {"path": "src/a.ts"}}</tool_call>\n<|eot_id|>', text: 'The file:\n```ts\nconst a = `<tool_call>`;\n```\n\n', calls: [{ ...READ, format: 'hermes' }] },
  { name: 'XML-ish parameters', content: '<function=list_vms><parameter=limit>3</parameter></function>', text: '', calls: [{ name: 'list_vms', arguments: '{"limit":3}', format: 'xml' }] },
  { name: 'harmony commentary call', content: '<|channel|>analysis<|message|>Need the file.<|end|><|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"src/a.ts"}<|call|>', text: '', calls: [{ ...READ, format: 'harmony' }] },
];

/** Text that mentions the formats but holds no call: it must come out unchanged. */
const PROSE: readonly string[] = [
  'Qwen wraps calls in a `<tool_call>` tag; Mistral uses [TOOL_CALLS] before a list.',
  'The answer is {"name": "Ada", "age": 36} as JSON.',
  '{"name": "Ada", "age": 36}',
  '{"path": "src/a.ts"}',
  'Here is a config:\n```json\n{"compilerOptions": {"strict": true}}\n```\n',
  'An example call:\n```json\n{"name": "delete_everything", "arguments": {}}\n```',
  '<tool_call>{"name": "read_file", "arguments": {"path": 42}}</tool_call>',
  '<tool_call>{"name": "unknown_tool", "arguments": {}}</tool_call>',
  'Write <function=f> in the template and [ARGS] after.',
  'a < b and c [d] `e` {f}',
  '```json\n[{"name": "read_file", "arguments": {"path": "a"}}, {"name": "read_file", "arguments": {"path": "b"}}]\n```',
  // Quoted, not called (issue 40): a valid call of an offered tool anywhere but the answer's end, or in code.
  'I will call it:\n```json\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n```\nDone.',
  'Sure. <function=read_file>{"path": "src/a.ts"}</function> ok',
  'The README says <tool_call>{"name": "read_file", "arguments": {"path": "src/a.ts"}}</tool_call> runs the tests; nothing was run.',
  'The README holds:\n```\n<tool_call>{"name": "read_file", "arguments": {"path": "src/a.ts"}}</tool_call>\n',
  'Inline: `<tool_call>{"name": "read_file", "arguments": {"path": "src/a.ts"}}</tool_call>',
  '````md\n```json\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n```\n',
  'Quoted: <|python_tag|>{"name": "read_file", "parameters": {"path": "src/a.ts"}}',
  'In code: `[TOOL_CALLS]read_file[ARGS]{"path": "src/a.ts"}',
  '<tool_call>{"name": "read_file", "arguments": {"path": "src/a.ts"}}</tool_call> was the call; I did not make it.',
  'Tokens <|eot_id|> and <|eom_id|> inside prose stay, as does `<|end|>`.',
];

describe('inference/chat tool calls printed as text', () => {
  for (const c of CASES) {
    it(`recovers ${c.name}`, () => {
      assert.deepEqual(decode([c.content]), { text: c.text, thinking: c.name.startsWith('harmony') ? 'Need the file.' : '', calls: c.calls });
    });
  }

  it('recovers every format the same way in any split of the stream (fast-check)', () => {
    for (const c of CASES) {
      const expected = decode([c.content]);
      check(fc.property(fc.array(fc.nat(), { maxLength: 12 }), (points) => {
        assert.deepEqual(decode(cut(c.content, points)), expected, c.name);
      }), 150);
    }
  });

  for (const prose of PROSE) {
    it(`leaves prose alone: ${JSON.stringify(prose).slice(0, 60)}`, () => {
      assert.deepEqual(decode([prose]), { text: prose, thinking: '', calls: [] });
      assert.deepEqual(decode([...prose]), { text: prose, thinking: '', calls: [] }, 'one character at a time');
    });
  }

  it('leaves prose alone in any split (fast-check)', () => {
    check(fc.property(fc.constantFrom(...PROSE), fc.array(fc.nat(), { maxLength: 10 }), (prose, points) => {
      assert.deepEqual(decode(cut(prose, points)), { text: prose, thinking: '', calls: [] });
    }), 300);
  });

  it('recovers nothing when no tools are offered (recovery off), and shows no harmony marker', () => {
    for (const c of CASES.filter((x) => !x.name.startsWith('harmony'))) {
      const out = decode([c.content], null);
      assert.deepEqual(out.calls, []);
      // An end token at the answer's end is the format's, dropped with or without tools.
      assert.equal(out.text, c.content.replace(/<\|eo[mt]_id\|>$/, ''));
    }
    const harmony = decode([CASES[CASES.length - 1]?.content ?? ''], null);
    assert.equal(harmony.text, '{"path":"src/a.ts"}');
    assert.doesNotMatch(harmony.text, /<\|/);
  });

  it('holds back only while the text may still be a call: prose after a rejected marker streams on', () => {
    const seen: string[] = [];
    const decoder = new ContentDecoder({ onText: (t) => seen.push(t), onThinking: () => undefined, onCall: () => undefined }, { tools: new OfferedTools(TOOLS) });
    decoder.push('Use <tool_call> tags');
    assert.equal(seen.join(''), 'Use <tool_call> tags');
    decoder.push(' and [TOOL_CALLS] too. {"name": 1}');
    assert.equal(seen.join(''), 'Use <tool_call> tags and [TOOL_CALLS] too. {"name": 1}');
  });

  it('gives up on a candidate longer than the look-ahead bound and shows it as text', () => {
    const long = `<tool_call>{"name": "read_file", "arguments": {"path": "${'x'.repeat(100_010)}"}}</tool_call>`;
    const out = decode([long]);
    assert.equal(out.calls.length, 0);
    assert.equal(out.text, long);
  });
});

describe('inference/chat tool calls printed as text: work grows linearly with a held call (issue 40, item 9)', () => {
  /** CPU microseconds to decode each text of `texts` (already cut into small deltas) once (CPU, not wall time: a loaded machine's waits are not work). */
  function once(split: readonly string[][]): number {
    return cpuMicros(() => {
      for (const deltas of split) decode(deltas);
    });
  }
  const deltasOf = (text: string): string[] => {
    const deltas: string[] = [];
    for (let i = 0; i < text.length; i += 3) deltas.push(text.slice(i, i + 3));
    return deltas;
  };

  const shapes: ReadonlyArray<[string, (n: number) => string]> = [
    ['hermes, a long string argument', (n) => `<tool_call>{"name": "read_file", "arguments": {"path": "${'ab/'.repeat(n / 3)}"}}</tool_call>`],
    ['hermes, nested arrays', (n) => `<tool_call>{"name": "list_vms", "arguments": {"x": ${'['.repeat(n / 2)}${']'.repeat(n / 2)}}}</tool_call>`],
    ['fenced json, a long array', (n) => `\`\`\`json\n{"name": "list_vms", "arguments": {"ids": [${'1,'.repeat(n / 2)}1]}}\n\`\`\``],
    ['mistral, braces in strings', (n) => `[TOOL_CALLS]read_file[ARGS]{"path": "${'{}'.repeat(n / 2)}"}`],
    ['bare JSON', (n) => `{"name": "read_file", "arguments": {"path": "${'x'.repeat(n)}"}}`],
    ['xml parameters', (n) => `<function=read_file><parameter=path>${'<p'.repeat(n / 2)}</parameter></function>`],
  ];

  for (const [name, make] of shapes) {
    it(`${name}: one text 8x as long costs about what 8 texts of the length do (quadratic: 8x more)`, () => {
      const n = 10_000;
      const eightTexts = Array.from({ length: 8 }, () => deltasOf(make(n)));
      const oneLong = [deltasOf(make(8 * n))];
      once(eightTexts);
      // Interleaved, the least CPU time of each kept: noise (a collector thread, a cold cache) only
      // ever adds to a run.
      let eight = Infinity;
      let long = Infinity;
      for (let run = 0; run < 7; run++) {
        eight = Math.min(eight, once(eightTexts));
        long = Math.min(long, once(oneLong));
      }
      // Linear: a ratio about 1. The quadratic scan this replaces measured 5-8x more here; the bound leaves room for a loaded machine.
      assert.ok(long < 4 * eight, `${name}: 8 x ${n} chars in ${eight} µs of CPU, ${8 * n} chars in ${long} µs`);
    });
  }
});
