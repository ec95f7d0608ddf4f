import assert from 'node:assert/strict';
import { resolveCatalog, ResourceCatalog, type ResourceItem } from '../../../src/core/console/index';
import { buildBody, changedInput, sameInputValue } from '../../../src/core/console/catalog/actionInputs';

const GIB = 1024 ** 3;

/** A VM whose memory is not a whole number of GiB (1.5 GiB), as the console may report it. */
const vm: ResourceItem = { id: 'vm-7', name: 'odd-memory', raw: { id: 'vm-7', name: 'odd-memory', cpu: 2, memory: 1.5 * GIB } };

describe('modify sends only what the user changed', () => {
  const catalog = new ResourceCatalog(resolveCatalog());
  const modify = catalog.action('virtualMachines', 'modify');

  it('the prefilled memory of a 1.5 GiB VM is 1.5 (not a whole number: a new value could not be it)', () => {
    assert.deepEqual(catalog.initialInput('virtualMachines', 'modify', vm), { name: 'odd-memory', cpu: 2, memoryGiB: 1.5 });
  });

  it('changing only the vCPU of a 1.5 GiB VM sends only the vCPU (the untouched memory is neither checked nor sent)', () => {
    const initial = catalog.initialInput('virtualMachines', 'modify', vm);
    // What the input flow returns when the person leaves name and memory as prefilled.
    const typed = { name: 'odd-memory', cpu: 4, memoryGiB: 1.5 };
    const input = changedInput(initial, typed);
    assert.deepEqual(input, { cpu: 4 });
    assert.deepEqual(buildBody(modify, input, vm, true), { cpu: 4 });
    // Before: the whole prefilled set was sent, and 1.5 failed the whole-GiB rule.
    assert.throws(() => buildBody(modify, typed, vm, true), /whole number/);
  });

  it('a model that repeats current values beside its change (the cloud tool) sends only the change', () => {
    const initial = catalog.initialInput('virtualMachines', 'modify', vm);
    assert.deepEqual(changedInput(initial, { memoryGiB: '1.5', cpu: '2', name: 'renamed' }), { name: 'renamed' });
    assert.deepEqual(buildBody(modify, changedInput(initial, { memoryGiB: 2 }), vm, true), { memory: 2 * GIB });
  });

  it('a new value is still checked by the field\'s rule', () => {
    const initial = catalog.initialInput('virtualMachines', 'modify', vm);
    assert.throws(() => buildBody(modify, changedInput(initial, { memoryGiB: 2.5 }), vm, true), /whole number/);
  });

  it('nothing changed is refused, not sent', () => {
    const initial = catalog.initialInput('virtualMachines', 'modify', vm);
    assert.throws(() => buildBody(modify, changedInput(initial, { ...initial }), vm, true), /Nothing to change/);
  });

  it('a create still gets its defaults when they are left as prefilled', () => {
    const create = catalog.action('virtualMachines', 'create');
    const defaults = catalog.initialInput('virtualMachines', 'create');
    const input = changedInput(defaults, { ...defaults, name: 'new-vm' });
    assert.deepEqual(input, { name: 'new-vm' });
    assert.deepEqual(buildBody(create, input, undefined, false), { name: 'new-vm', cpu: 2, memory: 4 * GIB, powerOn: false });
  });

  it('compares typed text with the prefilled value as the same value', () => {
    assert.ok(sameInputValue(1.5, '1.5'));
    assert.ok(sameInputValue(1.5, ' 1.50 '));
    assert.ok(sameInputValue('web', ' web '));
    assert.ok(sameInputValue(true, 'true'));
    assert.ok(!sameInputValue(1.5, '2'));
    assert.ok(!sameInputValue(1.5, ''));
    assert.ok(!sameInputValue(undefined, 'x'));
    assert.ok(!sameInputValue('a', 'b'));
    // Keys inherited from Object.prototype are not prefilled values.
    assert.deepEqual(changedInput({}, { constructor: 'x' }), { constructor: 'x' });
  });
});
