import assert from 'node:assert/strict';
import { acceptsTestArguments, credentialArgument, maySkipConfirmation, writeOptionsFrom } from '../../../src/core/commandTestArguments';

/**
 * Any extension, and a `command:` link in rendered Markdown, can run `stratus.resources.delete`
 * with arguments: only the host tests (ExtensionMode.Test) may skip the confirmation that way.
 */
describe('command arguments that skip a person\'s step', () => {
  const isPat = (v: unknown): v is { id: string; secret: string } => typeof v === 'object' && v !== null && 'id' in v && 'secret' in v;

  describe('outside ExtensionMode.Test (production, development)', () => {
    it('no argument can skip the confirmation modal', () => {
      for (const arg of [{ confirmed: true }, { confirmed: 'true' }, { confirmed: 1 }, [{ confirmed: true }], true, 'confirmed']) {
        assert.equal(maySkipConfirmation(arg, false), false, JSON.stringify(arg));
      }
    });

    it('write options from arguments are dropped: confirmation, input flow and follow deadline', () => {
      assert.deepEqual(writeOptionsFrom({ confirmed: true, input: { name: 'x' }, followTimeoutMs: 5 }, false), {});
    });

    it('credentials passed as arguments are ignored (the person is asked)', () => {
      assert.equal(credentialArgument({ id: 'attacker', secret: 's' }, false, isPat), undefined);
      assert.equal(credentialArgument('sk-attacker-key', false, (v): v is string => typeof v === 'string'), undefined);
      assert.equal(acceptsTestArguments(false), false);
    });
  });

  describe('in ExtensionMode.Test (host tests)', () => {
    it('{confirmed: true} skips the modal; anything else does not', () => {
      assert.equal(maySkipConfirmation({ confirmed: true }, true), true);
      assert.equal(maySkipConfirmation({ confirmed: 'yes' }, true), false);
      assert.equal(maySkipConfirmation(undefined, true), false);
      assert.equal(maySkipConfirmation([{ confirmed: true }], true), false);
    });

    it('well-formed options are taken, malformed ones dropped', () => {
      assert.deepEqual(writeOptionsFrom({ confirmed: true, input: { name: 'vm' }, followTimeoutMs: 500 }, true), { confirmed: true, input: { name: 'vm' }, followTimeoutMs: 500 });
      assert.deepEqual(writeOptionsFrom({ input: 'name=vm', followTimeoutMs: -1, confirmed: 'true' }, true), {});
      assert.deepEqual(writeOptionsFrom(null, true), {});
    });

    it('credentials of the expected shape are taken', () => {
      assert.deepEqual(credentialArgument({ id: 'i', secret: 's' }, true, isPat), { id: 'i', secret: 's' });
      assert.equal(credentialArgument(42, true, isPat), undefined);
    });
  });
});
