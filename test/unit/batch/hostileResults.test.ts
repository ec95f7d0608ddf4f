import assert from 'node:assert/strict';
import { parseBatch, parseResultLine } from '../../../src/core/inference/batch';

describe('batch: hostile results lines and batch objects (issue 42 review)', () => {
  it('an error line with a megabyte message or code is kept bounded (it is stored with the job for each failed item and shown)', () => {
    const huge = 'x'.repeat(1_000_000);
    const top = parseResultLine(JSON.stringify({ custom_id: 'file-0', error: { code: huge, message: huge } }));
    assert.ok(top && !top.ok);
    assert.ok(top.code.length <= 100, `code of ${top.code.length} characters`);
    assert.ok(top.message.length <= 500, `message of ${top.message.length} characters`);
    const inBody = parseResultLine(JSON.stringify({ custom_id: 'file-1', response: { status_code: 500, body: { error: { type: huge, message: huge } } } }));
    assert.ok(inBody && !inBody.ok);
    assert.ok(inBody.code.length <= 100 && inBody.message.length <= 500);
    assert.ok(inBody.message.startsWith('xxx') && inBody.message.endsWith('…'));
    const short = parseResultLine(JSON.stringify({ custom_id: 'file-2', error: { code: 'rate_limited', message: 'Try later' } }));
    assert.deepEqual(short, { customId: 'file-2', ok: false, code: 'rate_limited', message: 'Try later', statusCode: undefined });
  });

  it("a failed batch's validation errors are kept bounded", () => {
    const huge = 'y'.repeat(1_000_000);
    const batch = parseBatch({ id: 'batch_1', status: 'failed', errors: { data: [{ code: huge, message: huge, line: 3 }] } }, 'test');
    const issue = batch.errors[0];
    assert.ok(issue);
    assert.ok((issue.code ?? '').length <= 100 && issue.message.length <= 500);
    assert.equal(issue.line, 3);
  });
});
