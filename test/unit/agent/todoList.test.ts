import assert from 'node:assert/strict';
import { MAX_TODO_ITEMS, parseTodoAction, TodoError, TodoList } from '../../../src/core/agent/todoList';

describe('to-do list (stratus_todo)', () => {
  it('gives ids 1, 2, 3 in the order added, never reused across adds', () => {
    const list = new TodoList();
    list.apply({ action: 'add', titles: ['Read the code', 'Write the test'] });
    list.apply({ action: 'add', titles: ['  Fix   the bug '] });
    assert.deepEqual(list.state(), [
      { id: 1, title: 'Read the code', status: 'pending' },
      { id: 2, title: 'Write the test', status: 'pending' },
      { id: 3, title: 'Fix the bug', status: 'pending' },
    ]);
  });

  it('start then complete; the progress line names the current item and its position', () => {
    const list = new TodoList();
    list.apply({ action: 'add', titles: ['a', 'b', 'c'] });
    assert.equal(list.progressLine(), '0/3 done');
    list.apply({ action: 'start', id: 2 });
    assert.equal(list.progressLine(), '2/3: b');
    list.apply({ action: 'complete', id: 2 });
    assert.equal(list.progressLine(), '1/3 done');
    assert.equal(list.markdown(), '- [ ] 1. a\n- [x] 2. b\n- [ ] 3. c');
  });

  it('completing a done item again is not an error and changes nothing (idempotent)', () => {
    const list = new TodoList();
    list.apply({ action: 'add', titles: ['a'] });
    list.apply({ action: 'complete', id: 1 });
    const before = list.state();
    list.apply({ action: 'complete', id: 1 });
    assert.deepEqual(list.state(), before);
  });

  it('refuses invalid transitions with a clear error, the list unchanged', () => {
    const list = new TodoList();
    assert.throws(() => list.apply({ action: 'start', id: 1 }), (e: unknown) => e instanceof TodoError && /the list is empty/.test(e.message));
    list.apply({ action: 'add', titles: ['a', 'b'] });
    assert.throws(() => list.apply({ action: 'complete', id: 7 }), /No item 7: the list has ids 1, 2/);
    list.apply({ action: 'complete', id: 1 });
    const before = list.state();
    assert.throws(() => list.apply({ action: 'start', id: 1 }), /already done; it cannot be started again/);
    assert.deepEqual(list.state(), before);
  });

  it('caps the number of items', () => {
    const list = new TodoList();
    list.apply({ action: 'add', titles: Array.from({ length: MAX_TODO_ITEMS }, (_, i) => `t${i}`) });
    assert.throws(() => list.apply({ action: 'add', titles: ['one more'] }), /at most 50 items/);
    assert.equal(list.size, MAX_TODO_ITEMS);
  });

  it('parses the tool input, with a specific error for each bad shape', () => {
    assert.deepEqual(parseTodoAction({ action: 'add', titles: ['x'] }), { action: 'add', titles: ['x'] });
    assert.deepEqual(parseTodoAction({ action: 'start', id: 2 }), { action: 'start', id: 2 });
    assert.throws(() => parseTodoAction({ action: 'add', titles: [] }), /non-empty array/);
    assert.throws(() => parseTodoAction({ action: 'add', titles: ['ok', ' '] }), /non-empty string/);
    assert.throws(() => parseTodoAction({ action: 'complete', id: 1.5 }), /"complete" needs "id"/);
    assert.throws(() => parseTodoAction({ action: 'remove', id: 1 }), /Unknown action "remove"/);
  });

  it('round-trips through its state (result metadata), dropping malformed items', () => {
    const list = new TodoList();
    list.apply({ action: 'add', titles: ['a', 'b'] });
    list.apply({ action: 'start', id: 1 });
    const copy = TodoList.from(JSON.parse(JSON.stringify(list.state())));
    assert.deepEqual(copy.state(), list.state());
    copy.apply({ action: 'add', titles: ['c'] });
    assert.equal(copy.state()[2]?.id, 3, 'ids continue after the restored ones');
    assert.deepEqual(TodoList.from([{ id: 1, title: 'x', status: 'weird' }, 'junk', { id: 2, title: 'y', status: 'done' }]).state(), [{ id: 2, title: 'y', status: 'done' }]);
    assert.equal(TodoList.from(undefined).size, 0);
  });

  it('writes a note for the system message (empty list: nothing)', () => {
    const list = new TodoList();
    assert.equal(list.systemNote(), '');
    list.apply({ action: 'add', titles: ['a', 'b'] });
    list.apply({ action: 'complete', id: 1 });
    assert.match(list.systemNote(), /1 of 2 done\):\n1\. \[done\] a\n2\. \[pending\] b$/);
  });
});
