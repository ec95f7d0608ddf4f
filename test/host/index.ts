// Entry point the extension host loads (extensionTestsPath): runs the host suite with mocha and
// writes the spec reporter's output to STRATUS_HOST_RESULTS for the harness to print.
import { writeFileSync } from 'node:fs';
import { format } from 'node:util';
import Mocha from 'mocha';

export async function run(): Promise<void> {
  const lines: string[] = [];
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  base.consoleLog = (...args: unknown[]) => lines.push(format(...args));
  Mocha.reporters.Base.useColors = false;

  const grep = process.env.STRATUS_HOST_GREP;
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 30_000, ...(grep ? { grep } : {}) });
  mocha.suite.emit('pre-require', globalThis, 'host', mocha);
  await import('./suite');
  const { metrics } = await import('./extension');

  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  const file = process.env.STRATUS_HOST_RESULTS;
  if (file) writeFileSync(file, JSON.stringify({ failures, metrics, output: `${lines.join('\n')}\n` }));
  if (failures > 0) throw new Error(`${failures} host test(s) failed`);
}
