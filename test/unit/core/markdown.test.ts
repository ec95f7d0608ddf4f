import { strict as assert } from 'node:assert';
import { codeFence, escapeMarkdown, inlineCode } from '../../../src/core/markdown';

describe('markdown escaping', () => {
  it('escapes link, image, HTML and emphasis syntax in untrusted text', () => {
    const out = escapeMarkdown('[click](https://evil.example) ![x](y) <img src=x> **b** `c`');
    assert.ok(!/(^|[^\\])\[/.test(out), out);
    assert.ok(!/(^|[^\\])</.test(out), out);
    assert.ok(!/(^|[^\\])`/.test(out), out);
  });

  it('keeps the text on one line', () => {
    assert.equal(escapeMarkdown('a\nb\r\nc'), 'a b c');
  });

  it('builds a fence longer than any backtick run in the text', () => {
    const text = 'line\n````\nafter';
    const block = codeFence(text);
    assert.ok(block.startsWith('`````\n'), block);
    assert.ok(block.endsWith('\n`````'), block);
    assert.ok(block.includes(text));
    assert.ok(codeFence('plain').startsWith('```\n'));
  });

  it('builds inline code that no backtick in the text can close', () => {
    assert.equal(inlineCode('a`b'), '``a`b``');
    assert.equal(inlineCode('`x'), '`` `x ``');
    assert.equal(inlineCode('plain'), '`plain`');
  });
});
