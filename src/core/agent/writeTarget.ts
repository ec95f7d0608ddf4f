import { lstat, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { sensitivePathReason } from './sensitivePaths';
import { isWithin } from '../workspace/confinedReader';
import { ignoredReason, type PathFilter } from '../workspace/ignoreRules';

/**
 * The one judge of a write target: where a path lands once every symbolic link is resolved, and
 * from there whether writing it needs a warning (it runs code) or is refused (ignored, inside
 * `.git/`, outside the workspace). Every tool that writes asks it (createFile, proposeEdit) and so
 * does Undo before writing a checkpoint back: a path is judged where it lands, never as typed.
 */

/** The file-system calls the judge makes (a double fakes them in tests). */
export interface TargetFs {
  /** The canonical path; rejects when something on the way is missing. */
  realpath(p: string): Promise<string>;
  /** Whether an entry exists at `p` itself (a link is not followed). */
  present(p: string): Promise<boolean>;
}

export const nodeTargetFs: TargetFs = {
  realpath: (p) => realpath(p),
  present: (p) => lstat(p).then(() => true, () => false),
};

export type TargetLocation =
  | {
      readonly ok: true;
      /** Where a write lands: the deepest existing ancestor's real path, then the rest as given. */
      readonly real: string;
      /** Index of the root (in the list given) whose real path holds it. */
      readonly rootIndex: number;
      /** `real` relative to that root's real path, `/`-separated ('' for the root itself). */
      readonly relative: string;
      readonly exists: boolean;
    }
  | { readonly ok: false; readonly reason: 'outside' | 'dangling' | 'unresolvable' };

function missing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Where a write to `fsPath` (absolute) lands among `roots` (the workspace folders): the real path
 * of its deepest existing ancestor with the missing rest appended. Refused when that leaves every
 * root's real path, and when a missing part is a link whose target does not exist (a write would
 * create the target, wherever it is).
 */
export async function locateWriteTarget(fsPath: string, roots: readonly string[], fs: TargetFs = nodeTargetFs): Promise<TargetLocation> {
  const rest: string[] = [];
  let probe = path.resolve(fsPath);
  let real: string | undefined;
  while (real === undefined) {
    try {
      real = await fs.realpath(probe);
    } catch (error) {
      if (!missing(error)) return { ok: false, reason: 'unresolvable' };
      if (await fs.present(probe)) return { ok: false, reason: 'dangling' };
      const parent = path.dirname(probe);
      if (parent === probe) return { ok: false, reason: 'unresolvable' };
      rest.unshift(path.basename(probe));
      probe = parent;
    }
  }
  const full = rest.length > 0 ? path.join(real, ...rest) : real;
  for (const [rootIndex, root] of roots.entries()) {
    const realRoot = await fs.realpath(root).catch(() => undefined);
    if (realRoot === undefined || !isWithin(realRoot, full)) continue;
    return { ok: true, real: full, rootIndex, relative: path.relative(realRoot, full).split(path.sep).join('/'), exists: rest.length === 0 };
  }
  return { ok: false, reason: 'outside' };
}

/** Folders never written into, whatever the settings say. */
export const ALWAYS_IGNORED = ['**/.git', '**/node_modules'];

export interface TargetJudgement {
  /** Why writing needs a warning (it runs code), judged on the path as typed and where it lands. */
  readonly sensitive: string | undefined;
  /** Why a new file there is refused: ignored where it lands (`files.exclude`, `.git/`, `node_modules/`, a `.gitignore`). */
  readonly ignored: string | undefined;
}

/**
 * Judges a target: `typed` is the path as the model gave it (relative to its folder), `landed`
 * where it lands (`relative` of a located target), `filter` the ignore rules of the folder it
 * lands in, with the `.gitignore` files on the way of `landed` (see `filterForPath`).
 */
export function judgeTarget(typed: string, landed: string, filter: PathFilter): TargetJudgement {
  const sensitive = sensitivePathReason(typed) ?? sensitivePathReason(landed);
  return { sensitive, ignored: ignoredReason(filter, landed) };
}
