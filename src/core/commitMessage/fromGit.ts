import { listChangedFiles, readDiffsWithin } from './boundedDiff';
import type { FileDiff } from './diff';
import type { GitRunner } from './gitProcess';
import { buildCommitPromptFromFiles, promptFrame, sortChanges, type ChangeSource, type CommitContext, type CommitPrompt } from './prompt';

/** The changed files of the staged changes, or of the unstaged ones when nothing is staged (no diff text read). */
export async function listChanges(git: GitRunner, signal?: AbortSignal): Promise<{ source: ChangeSource; files: FileDiff[] }> {
  const staged = await listChangedFiles(git, 'staged', signal);
  if (staged.length > 0) return { source: 'staged', files: staged };
  return { source: 'unstaged', files: await listChangedFiles(git, 'unstaged', signal) };
}

/**
 * The commit prompt for `files` (from `listChanges`), reading from git only the diff text the
 * prompt can hold: ignored, binary and generated-by-name files are never read, the others up to
 * the diff's budget in the model's context.
 */
export async function commitPromptFromGit(git: GitRunner, context: CommitContext, files: readonly FileDiff[], signal?: AbortSignal): Promise<CommitPrompt> {
  const sorted = sortChanges(files, context.ignored, context.untracked);
  const frame = promptFrame(context, sorted);
  const read = await readDiffsWithin(git, context.source, sorted.sendable, frame.diffChars, signal);
  const byPath = new Map(read.map((f) => [f.path, f]));
  // Read text may show a generator's marker: the prompt is built again from what was read, within the same bounds.
  return buildCommitPromptFromFiles(context, files.map((f) => byPath.get(f.path) ?? f));
}
