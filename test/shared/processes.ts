import { readFileSync } from 'node:fs';

/**
 * Whether `pid` still runs. A zombie counts as ended: in some containers PID 1 does not reap
 * orphans, so a killed grandchild can stay a zombie (state Z) that `kill(pid, 0)` still finds.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}
