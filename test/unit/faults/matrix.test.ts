// The fault matrix (issue 22): every feature x every fault, on both sandbox profiles, on a fake
// clock. Each cell asserts the user-visible outcome of expectations.ts, a bounded fake time, the
// feature's own invariants (one POST per write, a tool run once, usage kept), and that nothing
// shown carries an HTML page. The matrix (cases, passed) is printed at the end.
import assert from 'node:assert/strict';
import { captureLogger } from '../console/helpers';
import { FAULTS } from './catalog';
import { expectationFor, type Expect } from './expectations';
import { FEATURES } from './allFeatures';
import { scratchDirs, type Run } from './features';
import { drain, MatrixRecorder, startWorld, stopWorld, type World } from './harness';
import { errorTexts, filesUnder, jwtForms, SecretSet, SweepRecorder } from './secrets';

const recorder = new MatrixRecorder();
const sweep = new SweepRecorder();

/**
 * The secrets sweep, on every cell: no form of the API key, the PAT's id or secret, or any JWT
 * issued from it, in a log line (every level, trace included), an error (message, stack, causes,
 * the sentence shown), what the feature showed (chat text, tool messages, tree labels, the Usage
 * view's payload), or a file it wrote.
 */
function sweepCell(world: World, feature: string, run: Run, lines: ReadonlyArray<{ level: string; message: string }>, dirs: readonly string[]): void {
  const secrets = new SecretSet();
  secrets.add('API key', world.sandbox.credentials.apiKey);
  secrets.add('PAT id', world.sandbox.credentials.patId);
  secrets.add('PAT secret', world.sandbox.credentials.patSecret);
  secrets.add('PAT id:secret', `${world.sandbox.credentials.patId}:${world.sandbox.credentials.patSecret}`);
  for (const bearer of world.bearers) if (bearer !== world.sandbox.credentials.apiKey) secrets.add('JWT', bearer, jwtForms);
  const leaks: string[] = [];
  for (const line of lines) {
    sweep.count(feature, line.level);
    for (const name of secrets.find(line.message)) leaks.push(`${name} in a ${line.level} log line`);
  }
  const outputs: Array<[string, string]> = [
    ...run.shown.map((t): [string, string] => ['shown text', t]),
    ...errorTexts(run.error).map((t): [string, string] => ['error', t]),
    ...dirs.flatMap((d) => filesUnder(d)).map((f): [string, string] => [`file ${f.path}`, f.text]),
  ];
  for (const [where, text] of outputs) {
    sweep.outputs += 1;
    for (const name of secrets.find(text)) leaks.push(`${name} in ${where}`);
  }
  sweep.leaks.push(...leaks);
  assert.deepEqual(leaks, [], 'no secret in any output');
}
const EXPLORE = process.env.STRATUS_FAULTS_EXPLORE === '1';

function check(run: Run, expect: Expect): void {
  const o = run.outcome;
  const seen = JSON.stringify(o);
  switch (expect.outcome) {
    case 'ok':
      assert.equal(o.kind, 'ok', seen);
      break;
    case 'silent':
      assert.equal(o.kind, 'silent', seen);
      if (o.kind === 'silent') assert.match(o.detail, expect.detail, seen);
      break;
    case 'error':
    case 'partial':
      assert.equal(o.kind, expect.outcome, seen);
      if (o.kind === 'error' || o.kind === 'partial') {
        assert.equal(o.error, expect.error, seen);
        for (const a of expect.actions) assert.ok(o.actions.includes(a), `action ${a} offered: ${seen}`);
        assert.ok(o.message.length > 0, 'a message for the user');
      }
      if (o.kind === 'partial') assert.ok(o.kept.length > 0, 'the partial answer is kept');
      break;
  }
  if (expect.requests !== undefined) assert.equal(run.requests, expect.requests, `requests on the endpoint: ${seen}`);
  if (expect.minElapsedMs !== undefined) assert.ok(run.elapsedMs >= expect.minElapsedMs, `took ${run.elapsedMs} ms of fake time, expected >= ${expect.minElapsedMs}`);
  if (expect.maxElapsedMs !== undefined) assert.ok(run.elapsedMs <= expect.maxElapsedMs, `took ${run.elapsedMs} ms of fake time, expected <= ${expect.maxElapsedMs}`);
  assert.deepEqual(run.violations, [], 'state kept');
  for (const text of run.shown) assert.doesNotMatch(text, /<html|<!DOCTYPE|<body/i, 'no HTML page shown to the user');
}

describe('fault matrix: features x faults on both profiles (fake clock)', function () {
  this.timeout(60_000);
  after(() => {
    console.log(`\nFault matrix (passed/cases over the contract and production profiles):\n${recorder.render(FEATURES.map((f) => f.id), FAULTS.map((f) => f.id))}\n`);
    console.log(`Secrets sweep (log lines scanned per feature and level, every cell above):\n${sweep.render(FEATURES.map((f) => f.id))}\n`);
  });

  for (const profile of ['contract', 'production'] as const) {
    describe(`${profile} profile`, () => {
      let world: World | undefined;
      const scratch = scratchDirs();
      before(async () => {
        world = await startWorld(profile);
      });
      after(async () => {
        await stopWorld(world);
        world = undefined;
      });
      afterEach(async () => {
        if (world) {
          await drain(world);
          world.sandbox.control.reset();
        }
        scratch.cleanup();
      });

      for (const feature of FEATURES) {
        for (const fault of FAULTS) {
          const na = fault.notApplicable(feature);
          if (na !== undefined) {
            recorder.record({ feature: feature.id, fault: fault.id, profile, status: 'n/a', note: na });
            continue;
          }
          const expect = expectationFor(feature.id, fault.id);
          it(`${feature.id} x ${fault.id}: ${expect.says}`, async () => {
            const w = world;
            assert.ok(w);
            let passed = false;
            try {
              const logger = captureLogger();
              const dirs: string[] = [];
              const dir = (): string => {
                const d = scratch.dir();
                dirs.push(d);
                return d;
              };
              w.bearers.clear();
              const run = await feature.run({ world: w, logger, inject: () => fault.inject(w, feature), dir, disk: fault.disk });
              if (EXPLORE) console.log(`EXPLORE ${profile} | ${feature.id} | ${fault.id} | ${JSON.stringify(run.outcome)} | req ${run.requests} | ${run.elapsedMs} ms | ${run.violations.join(';')}`);
              check(run, expect);
              sweepCell(w, feature.id, run, logger.lines, dirs);
              passed = true;
            } finally {
              recorder.record({ feature: feature.id, fault: fault.id, profile, status: passed ? 'pass' : 'fail' });
            }
          });
        }
      }
    });
  }
});
