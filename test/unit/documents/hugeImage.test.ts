import assert from 'node:assert/strict';
import { declaredImageSizes, MAX_IMAGE_PIXELS } from '../../../src/core/documents/imageLimits';
import { openDocument } from '../../../src/core/documents/open';
import type { PdfJs } from '../../../src/core/documents/pdf';
import * as pdfjs from '../../../src/core/documents/pdfjsEntry';
import { planPages } from '../../../src/core/documents/plan';
import { readPages } from '../../../src/core/documents/run';
import { hugeImagePdf, imagePdf } from './fixtures';

/** The real pdf.js, recording the options each document is opened with. */
function recordingPdfJs(): { pdfjs: PdfJs; options: Array<Record<string, unknown>> } {
  const real = pdfjs as unknown as PdfJs;
  const options: Array<Record<string, unknown>> = [];
  return {
    options,
    pdfjs: { OPS: real.OPS, getDocument: (source) => (options.push(source), real.getDocument(source)) },
  };
}

describe('documents: a PDF holding an image too large to decode (issue 31, item 9)', () => {
  it('refuses the 20000 x 20000 image before decoding it, and says which page, why and what to do', async () => {
    const bytes = hugeImagePdf(20_000, 20_000);
    assert.ok(bytes.length < 2048, `${bytes.length} bytes`);
    assert.deepEqual(declaredImageSizes(bytes), [{ width: 20_000, height: 20_000 }]);
    const recorded = recordingPdfJs();
    const source = await openDocument(bytes, 'poster.pdf', () => Promise.resolve(recorded.pdfjs), 8192);
    try {
      // pdf.js is told to refuse images over the limit before decoding them: planning stays bounded.
      assert.equal(recorded.options.length, 1);
      assert.equal(recorded.options[0]?.maxImageSize, MAX_IMAGE_PIXELS);
      assert.ok(MAX_IMAGE_PIXELS > 0 && MAX_IMAGE_PIXELS < 20_000 * 20_000);
      const info = await source.info(1, true);
      assert.equal(info.hasImage, false);
      assert.match(info.note ?? '', /^Page 1 was not read: this PDF holds an image of 20000 × 20000 pixels \(400 megapixels\), over the 40-megapixel limit, so it is not decoded .*Export the page at a lower resolution \(for example 300 dpi\)/);
      const plan = planPages([info], 'auto');
      assert.deepEqual(plan.map((p) => [p.action, p.note === info.note]), [['empty', true]]);
      // The page's result carries the note: the document view shows it, and the Markdown says it.
      const [outcome] = await readPages({ source, plan, read: () => Promise.reject(new Error('no OCR for this page')), model: 'm', concurrency: 1 });
      assert.equal(outcome?.status, 'done');
      assert.equal(outcome?.reason, info.note);
      assert.equal(outcome?.markdown, `_(${info.note})_`);
      assert.equal(await source.image(1), undefined);
    } finally {
      await source.close();
    }
  });

  it('leaves a scanned page of ordinary size as it was: read, no note', async () => {
    const bytes = await imagePdf([{ markdown: 'one' }]);
    const source = await openDocument(bytes, 'scan.pdf', () => Promise.resolve(pdfjs as unknown as PdfJs), 8192);
    try {
      const info = await source.info(1, true);
      assert.deepEqual([info.hasImage, info.note], [true, undefined]);
    } finally {
      await source.close();
    }
  });
});
