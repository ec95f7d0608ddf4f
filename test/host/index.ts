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

  const grep = process.env.STRATUS_HOST_GREP;
  const order = parseOrder(process.env.STRATUS_HOST_ORDER);
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 30_000, ...(grep ? { grep } : {}) });
  mocha.suite.emit('pre-require', globalThis, 'host', mocha);
  await import('./suite');
  const { metrics, recordStartup } = await import('./extension');
  // What activation did before any test could change it (read by activation.test.ts).
  await recordStartup();
  orderSuites(mocha.suite, order);
  lines.push(`host test order: ${order.spec} (STRATUS_HOST_ORDER=${order.spec} runs it again)`);
  lines.push(...mocha.suite.suites.map((suite, i) => `  ${i + 1}. ${suite.title}`));

  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  const file = process.env.STRATUS_HOST_RESULTS;
  if (file) writeFileSync(file, JSON.stringify({ failures, metrics, order: order.spec, output: `${lines.join('\n')}\n` }));
  if (failures > 0) throw new Error(`${failures} host test(s) failed`);
}
