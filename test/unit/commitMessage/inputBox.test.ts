import assert from 'node:assert/strict';
import { MessageWriter } from '../../../src/features/commitMessage/inputBox';

describe('features/commitMessage MessageWriter (state captured before an await)', () => {
  it('streams into the box while it holds what Stratus wrote, and restores the original on failure', () => {
    const box = { value: 'draft' };
    const writer = new MessageWriter(box);
    assert.equal(writer.write('Add'), true);
    assert.equal(writer.write('Add the cart'), true);
    assert.equal(box.value, 'Add the cart');
    writer.restore();
    assert.equal(box.value, 'draft');
  });

  it('stops writing once the person types their own message, and never restores over it', () => {
    const box = { value: '' };
    const writer = new MessageWriter(box);
    assert.equal(writer.write('Add'), true);
    box.value = 'my own message';
    assert.equal(writer.write('Add the cart'), false);
    assert.equal(writer.owned, false);
    writer.restore();
    assert.equal(box.value, 'my own message');
    // Even if the box later happens to hold Stratus' text again, it stays theirs.
    box.value = 'Add';
    assert.equal(writer.write('Add the cart'), false);
  });

  it('a box changed before the first write is not written at all', () => {
    const box = { value: '' };
    const writer = new MessageWriter(box);
    box.value = 'typed while the changes were read';
    assert.equal(writer.write('Add the cart'), false);
    assert.equal(box.value, 'typed while the changes were read');
  });
});
