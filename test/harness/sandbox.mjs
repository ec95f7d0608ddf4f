// Starts the sandbox server (test/sandbox) as a child process and reads its first-line JSON.
import { join } from 'node:path';
import { repoRoot } from './codeServer.mjs';
import { firstLine, spawnGroup } from './processes.mjs';

/**
 * @param {{ port?: number, profile?: string, extraArgs?: string[] }} [options]
 */
export async function startSandboxProcess({ port = 0, profile = 'contract', extraArgs = [] } = {}) {
  const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
  const proc = spawnGroup(tsx, [join(repoRoot, 'test', 'sandbox', 'cli.ts'), '--port', String(port), '--profile', profile, ...extraArgs], { cwd: repoRoot });
  const line = await firstLine(proc, 30_000, 'the sandbox server');
  let info;
  try {
    info = JSON.parse(line);
  } catch {
    await proc.stop();
    throw new Error(`The sandbox printed something that is not JSON as its first line: ${line.slice(0, 200)}`);
  }
  return { info, output: proc.output, stop: () => proc.stop() };
}
