import { judgeTarget, type TargetJudgement } from '../core/agent/writeTarget';
import type { WorkspaceFile } from './toolWorkspace';
import { landedIgnoreFilter } from './workspaceIgnores';

/**
 * The VS Code side of the one judge of a write target (src/core/agent/writeTarget.ts): the
 * sensitivity and ignore status of a resolved file, decided where it lands (symbolic links
 * resolved), with the ignore rules of the folder it lands in (workspaceIgnores.ts). Reads do not
 * come here: they ask the confined reader, and the ignore rules alone.
 */
export async function judgeWriteTarget(file: WorkspaceFile): Promise<TargetJudgement> {
  return judgeTarget(file.relative, file.lands.relative, await landedIgnoreFilter(file));
}
