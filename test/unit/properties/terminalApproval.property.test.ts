/**
 * Issue 31: an auto-approve rule approves its program with harmless arguments only. For any rule
 * and any argument list appended to it that holds one argument writing a file, running a program
 * or naming a place outside the folder (in any of its spellings: `=` forms, abbreviations, case,
 * clusters, quotes), the command asks; a list of plain harmless arguments is still approved.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { decideAutoApproval } from '../../../src/core/agent/terminalApproval';
import { WRITE_OR_EXEC_EXACT_OPTIONS, WRITE_OR_EXEC_LONG_OPTIONS, WRITE_OR_EXEC_SHORT_LETTERS } from '../../../src/core/agent/terminalArguments';
import { check } from './harness';

const TRUSTED = { trusted: true };

const rule = fc.constantFrom('git log', 'git diff', 'git', 'sort', 'npm test', 'npm run lint', 'npx tsc --noEmit', 'ls', 'cat', 'node');

// Ending in a digit keeps plain words apart from the deleting programs terminalApproval.ts always asks about (`rm`, `dd`).
const name = fc.stringMatching(/^[a-z][a-z0-9]{0,5}[0-9]$/).filter((n) => !n.startsWith('mkfs'));
const pathWord = fc.array(name, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
/** Options that neither write nor execute in any tool the rules name. */
const harmlessOption = fc.constantFrom('--oneline', '--stat', '--short', '--verbose', '--name-only', '--reverse', '--json', '--color=never', '--max-count=5', '--grep=fix', '--bail', '--all', '--runInBand', '--fixed-strings', '-1', '-v', '-n', '-la', '-u', '-s', '--', 'HEAD~1', 'main..topic');
const harmless = fc.oneof(name, pathWord, harmlessOption, fc.tuple(name, pathWord).map(([k, v]) => `${k}=${v}`));

/** A write/exec long option, spelled as a tool would accept it. */
const longOption = fc
  .tuple(fc.constantFrom(...WRITE_OR_EXEC_LONG_OPTIONS, ...WRITE_OR_EXEC_EXACT_OPTIONS), fc.nat(), fc.boolean(), fc.option(pathWord, { nil: undefined }))
  .map(([option, cut, upper, value]) => {
    // An abbreviation (at least one letter), the whole name, or (long list only) a longer name.
    const length = 1 + (cut % option.length);
    const spelled = WRITE_OR_EXEC_LONG_OPTIONS.includes(option) && cut % 3 === 0 ? `${option}-extra` : option.slice(0, length);
    const cased = upper ? spelled.toUpperCase() : spelled;
    return value === undefined ? `--${cased}` : `--${cased}=${value}`;
  });
/** A short cluster holding a write/exec letter among harmless ones, maybe with an attached value. */
const shortCluster = fc
  .tuple(fc.constantFrom(...WRITE_OR_EXEC_SHORT_LETTERS), fc.stringMatching(/^[lanuvs1]{0,3}$/), fc.stringMatching(/^[lanuvs1]{0,2}$/), fc.option(name, { nil: undefined }))
  .map(([letter, before, after, value]) => `-${before}${letter}${after}${value ?? ''}`);
const outsidePath = fc.oneof(
  pathWord.map((p) => `~/${p}`),
  fc.constant('~'),
  name.map((n) => `~${n}`),
  pathWord.map((p) => `/${p}`),
  pathWord.map((p) => `C:/${p}`),
  pathWord.map((p) => `//${p}`),
  fc.tuple(fc.nat(3), pathWord).map(([depth, p]) => `${'x/'.repeat(depth)}${'../'.repeat(depth + 1)}${p}`),
);
const outsideValue = fc.tuple(fc.oneof(name.map((n) => `--${n}`), name), outsidePath).map(([key, path]) => `${key}=${path}`);
const glob = fc.tuple(name, fc.constantFrom('*', '?', '[a]')).map(([n, g]) => `${n}${g}`);
/** One risky argument, sometimes with quotes a shell would remove around part of it. */
const risky = fc
  .tuple(fc.oneof(longOption, shortCluster, outsidePath, outsideValue, glob, name.map((n) => `@${n}`)), fc.nat())
  .map(([argument, split]) => (argument.length > 2 && split % 4 === 0 ? `"${argument.slice(0, 2)}"${argument.slice(2)}` : argument));

describe('property: terminal auto-approval and the arguments after a rule (issue 31)', () => {
  it('any appended argument list holding a write/exec option or an outside path asks', () => {
    check(
      fc.property(rule, fc.array(harmless, { maxLength: 4 }), risky, fc.array(harmless, { maxLength: 4 }), (r, before, bad, after) => {
        const command = [r, ...before, bad, ...after].join(' ');
        const decision = decideAutoApproval(command, [r], TRUSTED);
        assert.equal(decision.approve, false, command);
      }),
      3000,
    );
  });

  it('plain harmless arguments after a rule are still approved', () => {
    check(
      fc.property(rule, fc.array(harmless, { maxLength: 6 }), (r, args) => {
        const command = [r, ...args].join(' ');
        const decision = decideAutoApproval(command, [r], TRUSTED);
        assert.equal(decision.approve, true, `${command}: ${JSON.stringify(decision)}`);
      }),
      2000,
    );
  });

  it('in Restricted Mode nothing is approved, harmless or not', () => {
    check(
      fc.property(rule, fc.array(harmless, { maxLength: 4 }), (r, args) => {
        assert.equal(decideAutoApproval([r, ...args].join(' '), [r], { trusted: false }).approve, false);
      }),
      500,
    );
  });
});
