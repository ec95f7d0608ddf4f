import assert from 'node:assert/strict';
import { formatBytes, ImageBudget, MAX_IMAGE_BYTES, MAX_IMAGES_TOTAL_BYTES } from '../../../src/core/inference/chat/images';

const MB = 1024 * 1024;

describe('inference/chat image size caps', () => {
  it('admits images up to the per-image cap and counts them', () => {
    const budget = new ImageBudget();
    assert.equal(budget.admit('a.png', MAX_IMAGE_BYTES), undefined);
    assert.equal(budget.admit('b.png', 12), undefined);
  });

  it('refuses an image over the per-image cap, naming it, its size and the cap', () => {
    const refused = new ImageBudget().admit('screenshot.png', 7 * MB + 300 * 1024);
    assert.equal(refused, 'screenshot.png is 7.3 MB; images are limited to 5.0 MB each. Attach a smaller or more compressed image.');
  });

  it('refuses the image that would take the request over the total cap; the refused one is not counted', () => {
    const budget = new ImageBudget();
    const count = MAX_IMAGES_TOTAL_BYTES / (4 * MB);
    for (let i = 0; i < count; i++) assert.equal(budget.admit(`${i}.png`, 4 * MB), undefined);
    assert.match(budget.admit('last.png', 1 * MB) ?? '', /^last\.png would bring the images of this request to 21\.0 MB; at most 20\.0 MB/);
    const small = new ImageBudget(10, 15);
    assert.equal(small.admit('a', 10), undefined);
    assert.ok(small.admit('b', 10));
    assert.equal(small.admit('c', 5), undefined, 'b was refused, so it does not count');
  });

  it('formats sizes for people', () => {
    assert.equal(formatBytes(12), '12 bytes');
    assert.equal(formatBytes(2048), '2.0 KB');
    assert.equal(formatBytes(5 * MB), '5.0 MB');
  });
});
