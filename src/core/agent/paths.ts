import * as path from 'node:path';

/**
 * Confinement of the paths a model gives file tools: only inside the workspace folders. Pure string
 * logic (POSIX and Windows separators); the feature adds the symlink check on real paths.
 */

export interface WorkspaceRoot {
  /** Folder name, as models see it when several folders are open. */
  readonly name: string;
  /** Absolute file-system path of the folder. */
  readonly fsPath: string;
}

export type ConfinedPath =
  | { readonly ok: true; readonly root: WorkspaceRoot; readonly fsPath: string; /** Path relative to the root, `/`-separated. */ readonly relative: string }
  | { readonly ok: false; readonly reason: string };

function pathApi(fsPath: string): typeof path.posix {
  return /^[A-Za-z]:[\\/]|^\\\\/.test(fsPath) ? path.win32 : path.posix;
}

/** Whether `candidate` is `root` or below it (both absolute, normalized). */
export function isInside(root: string, candidate: string): boolean {
  const api = pathApi(root);
  const rel = api.relative(root, candidate);
  if (rel === '') return true;
  return !rel.startsWith('..') && !api.isAbsolute(rel);
}

/**
 * Resolves a model-given path against the workspace folders. Accepted: a path relative to the
 * (first) folder, `<folder name>/...` when several are open, or an absolute path inside a folder.
 * Refused with a sentence the model can act on: empty, NUL bytes, `..` segments, `~`, URLs,
 * absolute paths outside every folder, or no folder open.
 */
export function confinePath(roots: readonly WorkspaceRoot[], input: string): ConfinedPath {
  const refuse = (reason: string): ConfinedPath => ({ ok: false, reason });
  if (roots.length === 0) return refuse('No workspace folder is open, so no file can be read. Ask the user to open a folder.');
  const raw = input.trim();
  if (!raw) return refuse('The path is empty. Give a path relative to the workspace folder, e.g. "src/index.ts".');
  if (raw.includes('\0')) return refuse('The path contains a NUL character.');
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(raw)) return refuse(`"${raw}" is a URL; give a path relative to the workspace folder.`);
  if (raw.startsWith('~')) return refuse(`"${raw}" points into the home folder; only files inside the workspace can be used.`);
  const segments = raw.split(/[\\/]+/);
  if (segments.includes('..')) return refuse(`"${raw}" contains "..": only files inside the workspace can be used. Give a path relative to the workspace folder.`);

  const first = roots[0];
  if (!first) return refuse('No workspace folder is open.');
  const api = pathApi(first.fsPath);
  if (api.isAbsolute(raw) || path.posix.isAbsolute(raw)) {
    const normalized = api.normalize(raw);
    for (const root of roots) {
      const rootPath = api.normalize(root.fsPath);
      if (isInside(rootPath, normalized)) return { ok: true, root, fsPath: normalized, relative: api.relative(rootPath, normalized).split(api.sep).join('/') };
    }
    return refuse(`"${raw}" is outside the workspace folders (${roots.map((r) => r.name).join(', ')}); only files inside them can be used.`);
  }
  let root = first;
  let rest = segments.filter((s) => s !== '' && s !== '.');
  if (roots.length > 1) {
    const named = roots.find((r) => r.name === rest[0]);
    if (named) {
      root = named;
      rest = rest.slice(1);
    }
  }
  const rootPath = api.normalize(root.fsPath);
  const fsPath = rest.length > 0 ? api.join(rootPath, ...rest) : rootPath;
  if (!isInside(rootPath, fsPath)) return refuse(`"${raw}" is outside the workspace folder.`);
  return { ok: true, root, fsPath, relative: rest.join('/') };
}

/** A glob from a model, checked the same way (relative, no `..`, no absolute). */
export function confineGlob(input: string): { ok: true; glob: string } | { ok: false; reason: string } {
  const raw = input.trim();
  if (!raw) return { ok: false, reason: 'The glob is empty. Use a pattern relative to the workspace, e.g. "src/**/*.ts".' };
  if (raw.includes('\0')) return { ok: false, reason: 'The glob contains a NUL character.' };
  if (raw.split(/[\\/]+/).includes('..')) return { ok: false, reason: `"${raw}" contains "..": globs match inside the workspace only.` };
  // Judge the glob as it will be used (backslashes as slashes): `\\etc\\*` is `/etc/*`.
  const glob = raw.replace(/\\/g, '/');
  if (path.posix.isAbsolute(glob) || /^[A-Za-z]:\//.test(glob) || glob.startsWith('~')) return { ok: false, reason: `"${raw}" is absolute; use a pattern relative to the workspace, e.g. "**/*.md".` };
  return { ok: true, glob };
}
