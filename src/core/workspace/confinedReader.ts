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
 * - Where the file is is checked on the open descriptor itself: on Linux the path is opened
 *   (O_NOFOLLOW, so a link as the last component is not followed blindly, and O_NONBLOCK, so a
 *   FIFO never blocks the open) and `/proc/self/fd/N` says the real path of what was opened: no
 *   window between the check and the read, and one cheap call instead of a realpath per file.
 *   Elsewhere (or without /proc) the real path is taken first and opened with O_NOFOLLOW; the
 *   residual risk there is a folder on the way swapped for a link between the two calls.
 * - A link as the last component is resolved (realpath) and followed only when it stays inside.
 * - The size check and the read use the same descriptor (fstat, then at most `maxBytes` bytes):
 *   the file checked is the file read, and a huge file is never read whole. Anything but a
 *   regular file is refused.
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
      /** A NUL byte in the first 8 KB (false when `detectBinary` was false). */
      binary: boolean;
    }
  | { ok: false; reason: ReadRefusal; stamp?: FileStamp; /** 'directory' for a folder; the error's message for 'unreadable'. */ detail?: string };

export interface ReadOptions {
  maxBytes: number;
  /** Over the cap: 'refuse' (the search index) or 'truncate' to the first `maxBytes` (tools). */
  overCap: 'refuse' | 'truncate';
  /** Skip the read when the file's size and time are these (the index knows it already). */
  unless?: FileStamp | undefined;
  /** Look for a NUL byte (default true); false when the caller checks it itself. */
  detectBinary?: boolean | undefined;
  /** Supplies a buffer of at least `size` bytes to read into (reuse one across files). */
  buffer?: ((size: number) => Buffer) | undefined;
}

/** The node:fs calls the reader makes (a double counts or fakes them in tests). */
export interface ReaderFs {
  realpathSync(p: string): string;
  openSync(p: string, flags: number): number;
  readlinkSync(p: string): string;
  fstatSync(fd: number): nodeFs.Stats;
  readSync(fd: number, buffer: Buffer, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
}

export const nodeReaderFs: ReaderFs = {
  realpathSync: (p) => nodeFs.realpathSync.native(p),
  openSync: (p, flags) => nodeFs.openSync(p, flags),
  readlinkSync: (p) => nodeFs.readlinkSync(p),
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

/** Whether `candidate` is `root` or below it (both real paths: absolute, canonical, no links). */
export function isWithin(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  return candidate.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);
}

function code(error: unknown): string | undefined {
  const c = (error as { code?: unknown } | null)?.code;
  return typeof c === 'string' ? c : undefined;
}

function refusalOf(error: unknown): ReadRefusal {
  const c = code(error);
  if (c === 'ENOENT' || c === 'ENOTDIR') return 'gone';
  // A link as the last component (O_NOFOLLOW), or a loop of links.
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
  /** Whether /proc/self/fd tells where a descriptor is (Linux; false once it failed). */
  private procFd = process.platform === 'linux';

  constructor(
    readonly roots: readonly string[],
    private readonly fs: ReaderFs = nodeReaderFs,
  ) {}

  /** The absolute path of a root-relative path ('/'-separated, '' = the first root). */
  pathOf(relative: string, root = this.roots[0] ?? ''): string {
    if (relative === '') return root;
    return path.sep === '/' && !relative.includes('//') && !relative.startsWith('/') ? `${root}/${relative}` : path.join(root, ...relative.split('/'));
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

  /** The real path of an open descriptor (Linux /proc); undefined where that is not available. */
  private fdPath(fd: number): string | undefined {
    if (!this.procFd) return undefined;
    try {
      return this.fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      this.procFd = false;
      return undefined;
    }
  }

  private openAt(target: string): { fd: number } | (ConfinedRead & { ok: false }) {
    try {
      return { fd: this.fs.openSync(target, OPEN_FLAGS) };
    } catch (error) {
      // A folder opens on POSIX; EISDIR elsewhere.
      if (code(error) === 'EISDIR') return failure('not_file', 'directory');
      const reason = refusalOf(error);
      return failure(reason, reason === 'unreadable' ? error : undefined);
    }
  }

  /**
   * Opens a file; `verified` when it was opened by its real path (already checked), otherwise
   * `located` must confirm where the descriptor is before anything is read from it.
   */
  private open(absolute: string): { fd: number; verified: boolean } | (ConfinedRead & { ok: false }) {
    let target = absolute;
    if (!this.procFd) {
      const resolved = this.resolve(absolute);
      if (!resolved.ok) return failure(resolved.reason);
      target = resolved.real;
    }
    let result = this.openAt(target);
    if (!('fd' in result) && result.reason === 'outside' && target === absolute) {
      // O_NOFOLLOW refused a link as the last component: followed only when it stays inside.
      const resolved = this.resolve(absolute);
      if (!resolved.ok) return failure(resolved.reason);
      target = resolved.real;
      result = this.openAt(target);
    }
    return 'fd' in result ? { fd: result.fd, verified: target !== absolute } : result;
  }

  /** Whether an open descriptor is inside a root: /proc says where it is (or, without /proc, a realpath). */
  private located(fd: number, absolute: string): boolean {
    const real = this.fdPath(fd);
    return real !== undefined ? this.roots_().some((r) => isWithin(r.real, real)) : this.resolve(absolute).ok;
  }

  private close(fd: number): void {
    try {
      this.fs.closeSync(fd);
    } catch {
      // Nothing more to do with it.
    }
  }

  /** Reads a regular file inside the roots, at most `maxBytes` of it, checked before reading. */
  read(absolute: string, options: ReadOptions): ConfinedRead {
    const open = this.open(absolute);
    if (!('fd' in open)) return open;
    const fd = open.fd;
    try {
      const s = this.fs.fstatSync(fd);
      const stamp = { size: s.size, mtime: s.mtimeMs };
      const { unless, maxBytes } = options;
      // Unchanged: nothing is read, so nothing can leave (the reload's check of every file stays cheap).
      if (s.isFile() && unless && unless.size === stamp.size && unless.mtime === stamp.mtime) return failure('unchanged', undefined, stamp);
      if (!open.verified && !this.located(fd, absolute)) return failure('outside');
      if (!s.isFile()) return failure('not_file', s.isDirectory() ? 'directory' : 'not a regular file');
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
      return { ok: true, bytes, stamp, truncated: s.size > off, binary: options.detectBinary !== false && looksBinary(bytes) };
    } catch (error) {
      return failure('unreadable', error);
    } finally {
      this.close(fd);
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
