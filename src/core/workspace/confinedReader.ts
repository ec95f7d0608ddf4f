import * as nodeFs from 'node:fs';
import * as path from 'node:path';

/**
 * The one door through which Stratus reads a workspace file from a local disk (search index,
 * search tool, readFile tool, and later OCR and completion context).
 *
 * Policy:
 * - The file's real path (every symbolic link resolved) must be inside the real path of one of the
 *   roots (the workspace folders). A link whose target leaves them is refused ('outside'), whether
 *   it is the file itself or a folder on the way. A link whose target stays inside is followed:
 *   the file read is one the user could open in the workspace anyway (the search crawl still does
 *   not descend into linked folders, so nothing is indexed twice through a loop).
 * - The real path is opened (with O_NOFOLLOW, so a last component swapped for a link after the
 *   check is refused, and O_NONBLOCK, so a FIFO never blocks the open), and the size check and the
 *   read use that descriptor (fstat, then at most `maxBytes` bytes): the file checked is the file
 *   read, and a huge file is never read whole. Anything but a regular file is refused.
 * - Residual risk: a folder on the way swapped for a link between realpath and open. Closing it
 *   needs openat2(RESOLVE_BENEATH), which Node does not offer.
 */

export interface FileStamp {
  size: number;
  /** Modification time, milliseconds. */
  mtime: number;
}

export type ReadRefusal =
  /** No such file (or a folder on the way is missing). */
  | 'gone'
  /** Its real path is outside every root (through a symbolic link). */
  | 'outside'
  /** A folder, FIFO, socket or device. */
  | 'not_file'
  /** Larger than `maxBytes` with `overCap: 'refuse'` (the stamp says how large). */
  | 'too_large'
  /** Size and time equal `unless`: not read. */
  | 'unchanged'
  /** Permissions or an I/O error. */
  | 'unreadable';

export type ConfinedRead =
  | {
      ok: true;
      /** At most `maxBytes` bytes (valid until the next read when `buffer` was given). */
      bytes: Uint8Array;
      stamp: FileStamp;
      /** The file is larger than what was read. */
      truncated: boolean;
      /** A NUL byte in the first 8 KB. */
      binary: boolean;
    }
  | { ok: false; reason: ReadRefusal; stamp?: FileStamp; /** 'directory' for a folder; the error's message for 'unreadable'. */ detail?: string };

export interface ReadOptions {
  maxBytes: number;
  /** Over the cap: 'refuse' (the search index) or 'truncate' to the first `maxBytes` (tools). */
  overCap: 'refuse' | 'truncate';
  /** Skip the read when the file's size and time are these (the index knows it already). */
  unless?: FileStamp | undefined;
  /** Supplies a buffer of at least `size` bytes to read into (reuse one across files). */
  buffer?: ((size: number) => Buffer) | undefined;
}

/** The node:fs calls the reader makes (a double counts or fakes them in tests). */
export interface ReaderFs {
  realpathSync(p: string): string;
  openSync(p: string, flags: number): number;
  fstatSync(fd: number): nodeFs.Stats;
  readSync(fd: number, buffer: Buffer, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
}

export const nodeReaderFs: ReaderFs = {
  realpathSync: (p) => nodeFs.realpathSync.native(p),
  openSync: (p, flags) => nodeFs.openSync(p, flags),
  fstatSync: (fd) => nodeFs.fstatSync(fd),
  readSync: (fd, buffer, offset, length, position) => nodeFs.readSync(fd, buffer, offset, length, position),
  closeSync: (fd) => nodeFs.closeSync(fd),
};

const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = nodeFs.constants;
const OPEN_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const BINARY_PROBE = 8192;

/** Whether the bytes look binary: a NUL byte in the first 8 KB. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, BINARY_PROBE);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Whether `candidate` is `root` or below it (both absolute and normalized). */
export function isWithin(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function code(error: unknown): string | undefined {
  const c = (error as { code?: unknown } | null)?.code;
  return typeof c === 'string' ? c : undefined;
}

function refusalOf(error: unknown): ReadRefusal {
  const c = code(error);
  if (c === 'ENOENT' || c === 'ENOTDIR') return 'gone';
  // O_NOFOLLOW on a link: it appeared after the real path was taken.
  if (c === 'ELOOP' || c === 'EMLINK') return 'outside';
  return 'unreadable';
}

function failure(reason: ReadRefusal, why?: unknown, stamp?: FileStamp): ConfinedRead & { ok: false } {
  const out: ConfinedRead & { ok: false } = { ok: false, reason };
  if (stamp) out.stamp = stamp;
  if (why !== undefined) out.detail = why instanceof Error ? why.message : String(why);
  return out;
}

export type Resolved = { ok: true; real: string; root: string } | { ok: false; reason: 'gone' | 'outside' | 'unreadable' };

/** Reads files below a set of root folders (absolute paths), confined to their real paths. */
export class ConfinedReader {
  private realRoots: Array<{ root: string; real: string }> | undefined;

  constructor(
    readonly roots: readonly string[],
    private readonly fs: ReaderFs = nodeReaderFs,
  ) {}

  /** The absolute path of a root-relative path ('/'-separated, '' = the first root). */
  pathOf(relative: string, root = this.roots[0] ?? ''): string {
    return relative === '' ? root : path.join(root, ...relative.split('/'));
  }

  private roots_(): Array<{ root: string; real: string }> {
    if (this.realRoots) return this.realRoots;
    const found: Array<{ root: string; real: string }> = [];
    let missing = false;
    for (const root of this.roots) {
      try {
        found.push({ root, real: this.fs.realpathSync(root) });
      } catch {
        missing = true;
      }
    }
    // Cached once every root resolved (a missing root is looked up again next time).
    if (!missing) this.realRoots = found;
    return found;
  }

  /** The real path of `absolute` when it is inside a root's real path. */
  resolve(absolute: string): Resolved {
    let real: string;
    try {
      real = this.fs.realpathSync(absolute);
    } catch (error) {
      const reason = refusalOf(error);
      return { ok: false, reason: reason === 'gone' || reason === 'outside' ? reason : 'unreadable' };
    }
    const root = this.roots_().find((r) => isWithin(r.real, real));
    return root ? { ok: true, real, root: root.root } : { ok: false, reason: 'outside' };
  }

  /** Size and time of a regular file inside the roots (nothing is read). */
  stat(absolute: string): { ok: true; stamp: FileStamp } | { ok: false; reason: ReadRefusal } {
    const r = this.read(absolute, { maxBytes: 0, overCap: 'refuse' });
    if (r.ok) return { ok: true, stamp: r.stamp };
    if ((r.reason === 'too_large' || r.reason === 'unchanged') && r.stamp) return { ok: true, stamp: r.stamp };
    return { ok: false, reason: r.reason };
  }

  /** Reads a regular file inside the roots, at most `maxBytes` of it, checked before reading. */
  read(absolute: string, options: ReadOptions): ConfinedRead {
    const resolved = this.resolve(absolute);
    if (!resolved.ok) return failure(resolved.reason);
    let fd: number;
    try {
      fd = this.fs.openSync(resolved.real, OPEN_FLAGS);
    } catch (error) {
      const reason = refusalOf(error);
      // A folder opens on POSIX; EISDIR elsewhere.
      return code(error) === 'EISDIR' ? failure('not_file', 'directory') : failure(reason, error);
    }
    try {
      const s = this.fs.fstatSync(fd);
      if (!s.isFile()) return failure('not_file', s.isDirectory() ? 'directory' : 'not a regular file');
      const stamp = { size: s.size, mtime: s.mtimeMs };
      const { unless, maxBytes } = options;
      if (unless && unless.size === stamp.size && unless.mtime === stamp.mtime) return failure('unchanged', undefined, stamp);
      if (s.size > maxBytes && options.overCap === 'refuse') return failure('too_large', undefined, stamp);
      const want = Math.max(0, Math.min(s.size, maxBytes));
      const buf = options.buffer ? options.buffer(want) : Buffer.allocUnsafe(want);
      let off = 0;
      while (off < want) {
        const n = this.fs.readSync(fd, buf, off, want - off, off);
        if (n === 0) break;
        off += n;
      }
      const bytes = buf.subarray(0, off);
      return { ok: true, bytes, stamp, truncated: s.size > off, binary: looksBinary(bytes) };
    } catch (error) {
      return failure('unreadable', error);
    } finally {
      try {
        this.fs.closeSync(fd);
      } catch {
        // Nothing more to do with it.
      }
    }
  }

  /** Lists a folder inside the roots ('outside' and 'gone' as for files). */
  list(absolute: string): { ok: true; entries: nodeFs.Dirent[] } | { ok: false; reason: 'gone' | 'outside' | 'unreadable'; detail?: string } {
    const resolved = this.resolve(absolute);
    if (!resolved.ok) return resolved;
    try {
      return { ok: true, entries: nodeFs.readdirSync(resolved.real, { withFileTypes: true }) };
    } catch (error) {
      const reason = refusalOf(error);
      return { ok: false, reason: reason === 'gone' ? 'gone' : 'unreadable', detail: error instanceof Error ? error.message : String(error) };
    }
  }
}
