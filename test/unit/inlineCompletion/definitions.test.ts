import * as assert from 'node:assert/strict';
import { DEFINITION_LINES, definitionIn, identifiersNearCursor, LINES_ABOVE, MAX_IDENTIFIERS } from '../../../src/core/inlineCompletion/definitions';

describe('core/inlineCompletion definitions near the cursor', () => {
  it('takes the complete identifiers near the cursor, the nearest first, not the word being typed', () => {
    const prefix = [
      'import { parseInvoice } from "./billing";',
      'function render(order: Order) {',
      '  const lines = normalizeLines(order.items);',
      '  const total = computeTotalWidth(lines, formatter',
      '  return sum',
    ].join('\n');
    assert.deepEqual(identifiersNearCursor(prefix, '\n}\n', prefix), ['formatter', 'computeTotalWidth', 'order'].slice(0, MAX_IDENTIFIERS), '`lines` and `total` are defined here, `order.items` is a property');
    assert.ok(!identifiersNearCursor(prefix, '', prefix).includes('sum'), 'the word at the cursor is being typed');
  });

  it('leaves out keywords, short names and names the document defines', () => {
    const doc = 'function localHelper() {}\nconst x = localHelper(remoteThing, this, value, await fooBar';
    assert.deepEqual(identifiersNearCursor(doc, ');', doc), ['remoteThing']);
  });

  it('looks LINES_ABOVE lines up, no further', () => {
    const prefix = ['farAwayName();', 'firstAbove();', 'secondAbove();', 'thirdAbove();', ''].join('\n');
    assert.deepEqual(identifiersNearCursor(prefix, '', ''), ['thirdAbove', 'secondAbove', 'firstAbove']);
    assert.deepEqual(identifiersNearCursor(`farAwayName();\n${'\n'.repeat(LINES_ABOVE)}`, '', ''), []);
  });

  it('keeps a method call after a dot, not a property read', () => {
    assert.deepEqual(identifiersNearCursor('queue.flushQueue(order.items, ', '', ''), ['order', 'flushQueue', 'queue']);
  });

  it('reads identifiers after the cursor on its line too (the last line of the file as well)', () => {
    assert.deepEqual(identifiersNearCursor('const a = ', 'mergeOptions(defaults)\n', 'const a = mergeOptions(defaults)\n'), ['defaults']);
    assert.deepEqual(identifiersNearCursor('const a = ', 'x + mergeOptions(defaults)', ''), ['mergeOptions', 'defaults']);
  });

  it('finds the definition in an indexed chunk and cuts it from its defining line', () => {
    const chunk = ['// helpers', '', 'export async function computeTotalWidth(lines: Line[], f: Formatter): number {', ...Array.from({ length: 20 }, (_, k) => `  step${k}();`), '}'].join('\n');
    const found = definitionIn('computeTotalWidth', chunk, 41);
    assert.equal(found?.line, 43);
    assert.equal(found?.text.split('\n').length, DEFINITION_LINES);
    assert.match(found?.text ?? '', /^export async function computeTotalWidth\(/);
    assert.equal(definitionIn('computeTotalWidth', 'const w = computeTotalWidth(lines, f);', 1), undefined, 'a mere use is no definition');
  });

  it('recognizes classes, types, variables, Python defs, Go funcs and methods', () => {
    for (const [name, text] of [
      ['Invoice', 'export class Invoice extends Base {'],
      ['Options', 'export interface Options {'],
      ['Mode', 'type Mode = "a" | "b";'],
      ['DEFAULTS', 'export const DEFAULTS = {'],
      ['parse_row', 'def parse_row(row):'],
      ['ParseRow', 'func ParseRow(row string) error {'],
      ['flushQueue', '  async flushQueue(limit: number): Promise<void> {'],
      ['$store', 'const $store = createStore();'],
    ] as const) {
      assert.equal(definitionIn(name, `// before\n${text}\n  body\n`, 10)?.line, 11, name);
    }
  });
});
