// Entry point the extension host loads (extensionTestsPath): runs the host suite with mocha and
// writes the spec reporter's output to STRATUS_HOST_RESULTS for the harness to print.
// STRATUS_HOST_ORDER=reverse|shuffle[:seed] runs the top-level suites (files) in another order, to
// show that no file depends on what an earlier one left behind; a `+tests` suffix also reorders
// the tests inside each suite (see test/shared/order.ts).
import { writeFileSync } from 'node:fs';
import { format } from 'node:util';
import Mocha from 'mocha';
import { orderSuites, parseOrder } from '../shared/order';

export async function run(): Promise<void> {
  const lines: string[] = [];
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  base.consoleLog = (...args: unknown[]) => lines.push(format(...args));
  Mocha.reporters.Base.useColors = false;
  const file = process.env.STRATUS_HOST_RESULTS;
  const report = (result: { failures: number; metrics: Record<string, number>; order?: string; suiteSeconds?: Record<string, number>; runSeconds?: number }): void => {
    if (file) writeFileSync(file, JSON.stringify({ ...result, output: `${lines.join('\n')}\n` }));
  };

  const grep = process.env.STRATUS_HOST_GREP;
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 30_000, ...(grep ? { grep } : {}) });
  let metrics: Record<string, number> = {};
  let spec: string;
  try {
    const order = parseOrder(process.env.STRATUS_HOST_ORDER);
    spec = order.spec;
    mocha.suite.emit('pre-require', globalThis, 'host', mocha);
    await import('./suite');
    const extension = await import('./extension');
    metrics = extension.metrics;
    // What activation did before any test could change it (read by activation.test.ts).
    await extension.recordStartup();
    orderSuites(mocha.suite, order);
  } catch (error) {
    // Said in the results, which the harness prints (a bare exception would only show as "exit 1").
    lines.push(`The host test run could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, '', '  0 passing', '  1 failing');
    report({ failures: 1, metrics });
    throw error;
  }
  lines.push(`host test order: ${spec} (STRATUS_HOST_ORDER=${spec} runs it again)`);
  lines.push(...mocha.suite.suites.map((suite, i) => `  ${i + 1}. ${suite.title}`));

  // Where the time goes: each file's suite from its first hook to its last, hooks included (the
  // spec reporter shows only the tests' own times). The harness prints the slowest.
  const suiteSeconds: Record<string, number> = {};
  const started = new Map<Mocha.Suite, number>();
  const runStart = performance.now();
  const failures = await new Promise<number>((resolve) => {
    const runner = mocha.run(resolve);
    runner.on('suite', (suite) => {
      if (suite.parent === mocha.suite) started.set(suite, performance.now());
    });
    runner.on('suite end', (suite) => {
      const start = started.get(suite);
      if (start !== undefined) suiteSeconds[suite.title] = Math.round(performance.now() - start) / 1000;
    });
  });
  report({ failures, metrics, order: spec, suiteSeconds, runSeconds: Math.round(performance.now() - runStart) / 1000 });
  if (failures > 0) throw new Error(`${failures} host test(s) failed`);
}
