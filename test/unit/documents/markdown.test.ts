import assert from 'node:assert/strict';
import { cleanOcrText, htmlTableToMarkdown } from '../../../src/core/documents/cleanup';
import { documentMarkdown } from '../../../src/core/documents/markdown';
import { textLayerMarkdown, visibleChars } from '../../../src/core/documents/textLayer';
import { INVOICE_MARKDOWN, INVOICE_TABLE } from './fixtures';

describe('documents: Markdown', () => {
  it('cleans an OCR answer: grounding tags, special tokens, a wrapping fence, reasoning, extra blank lines', () => {
    const raw = '```markdown\n<think>hmm</think><|ref|>title<|/ref|><|det|>[[1, 2, 3, 4]]<|/det|>\n# Title  \r\n\n\n\nBody<|end_of_text|>\n```';
    assert.equal(cleanOcrText(raw), '# Title\n\nBody');
  });

  it('turns HTML tables into Markdown tables, escaping pipes and entities', () => {
    assert.equal(cleanOcrText(INVOICE_MARKDOWN), ['# Invoice 2024-017', '', 'Sovereign Cloud SAS, 12 rue des Nuages, Lyon', '', INVOICE_TABLE, '', 'Total: 40.50 EUR'].join('\n'));
    assert.equal(htmlTableToMarkdown('<table><tr><td>a|b</td><td>&lt;x&gt; &amp; y</td></tr><tr><td>1</td></tr></table>'), '\n| a\\|b | <x> & y |\n| --- | --- |\n| 1 |  |\n');
    assert.equal(htmlTableToMarkdown('<table></table>'), undefined);
  });

  it('assembles pages under headings, saying how each was read', () => {
    const text = documentMarkdown('spec.pdf', [
      { number: 1, action: 'text', status: 'done', markdown: 'Intro' },
      { number: 2, action: 'ocr', status: 'done', markdown: INVOICE_TABLE, model: 'deepseek-ocr:3b' },
      { number: 3, action: 'empty', status: 'done', markdown: '' },
      { number: 4, action: 'ocr', status: 'failed', reason: 'rate limited' },
      { number: 5, action: 'ocr', status: 'cancelled' },
    ]);
    assert.equal(
      text,
      ['# spec.pdf', '## Page 1', '_Text layer_', 'Intro', '## Page 2', '_OCR (deepseek-ocr:3b)_', INVOICE_TABLE, '## Page 3', '_Blank page_', '## Page 4', '_Not read: rate limited_', '## Page 5', '_Not read (cancelled)_'].join('\n\n') + '\n',
    );
  });

  it('rebuilds lines and paragraphs from text-layer runs', () => {
    const run = (str: string, y: number, hasEOL = false) => ({ str, hasEOL, transform: [12, 0, 0, 12, 50, y], height: 12 });
    const runs = [run('Hello ', 700), run('world', 700, true), run('second line', 684), run('after a gap', 600), run('   ', 580)];
    assert.equal(textLayerMarkdown(runs), 'Hello world\nsecond line\n\nafter a gap');
    assert.equal(visibleChars(runs), 'Helloworldsecondlineafteragap'.length);
  });
});
