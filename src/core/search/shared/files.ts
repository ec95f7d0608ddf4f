import { closeSync, fstatSync, openSync, promises as fsp, readSync } from 'node:fs';
import { join } from 'node:path';
import { ConfinedReader, type ReaderFs, type ReadRefusal } from '../../workspace/confinedReader';

/** One entry of a directory listing. */
export interface DirEntry {
  name: string;
  /** `undecodable`: a name that is not valid UTF-8 (its decoded form, with U+FFFD, names no file). */
  kind: 'file' | 'directory' | 'other' | 'undecodable';
}

export interface FileStat {
  size: number;
  /** Modification time, milliseconds. */
  mtime: number;
}

/**
 * What the search pipeline needs from the workspace, by workspace-relative path with forward
 * slashes ('' is the root). VS Code's file system in the extension, node:fs in tests and benches.
 * Every implementation is confined to the workspace folder: a path whose real location (through a
 * symbolic link) is outside it is reported gone by `stat`, `loadSync` and `list`, and refused by
 * `read` (see src/core/workspace/confinedReader.ts).
 */
export interface SearchFileSystem {
  list(dir: string): Promise<DirEntry[]>;
  /** undefined when the file is gone, not a regular file, or outside the workspace folder. */
  stat(path: string): Promise<FileStat | undefined>;
  /** The file's bytes; throws when it is gone, outside, not a regular file or over `maxBytes` (checked before reading). */
  read(path: string, maxBytes: number): Promise<Uint8Array>;
  /**
   * Optional (local disks): stat and read a file in one synchronous call, for the bulk build.
   * `bytes` is undefined when the file is larger than `maxBytes` or its size and time equal
   * `unless` (unchanged: not read), and is only valid until the next call (one buffer is reused).
   * undefined when the file is gone, not a regular file or outside; throws when it cannot be read.
   */
  loadSync?(path: string, maxBytes: number, unless?: FileStat): LoadedFile | undefined;
}

export interface LoadedFile {
  stat: FileStat;
  bytes: Uint8Array | undefined;
}

/**
 * A file read in pieces at given positions (a segment of the search index: its postings are read
 * on demand, not loaded). Reads are synchronous: a query reads a few lists of a few KB.
 */
export interface RandomAccessFile {
  readonly size: number;
  /** Reads up to `into.length` bytes at `position`; returns how many were read (fewer at the end). */
  read(into: Uint8Array, position: number): number;
  close(): void;
}

/** Where the persisted index lives (the extension's workspace storage). */
export interface IndexStorage {
  read(name: string): Promise<Uint8Array | undefined>;
  /** Replaces the file atomically (a crash leaves the old one or the new one): `data` in pieces is written in order. */
  write(name: string, data: Uint8Array | readonly Uint8Array[]): Promise<void>;
  delete(name: string): Promise<void>;
  /** Opens the file for positioned reads; undefined when it does not exist (absent: `read` whole). */
  open?(name: string): Promise<RandomAccessFile | undefined>;
}

/** A file over bytes in memory (tests, and an index serialized to bytes). */
export class BytesFile implements RandomAccessFile {
  constructor(private readonly bytes: Uint8Array) {}
  get size(): number {
    return this.bytes.length;
  }
  read(into: Uint8Array, position: number): number {
    const n = Math.max(0, Math.min(into.length, this.bytes.length - position));
    into.set(this.bytes.subarray(position, position + n));
    return n;
  }
  close(): void {}
}

/** A file descriptor kept open for positioned reads. */
class NodeRandomAccessFile implements RandomAccessFile {
  private fd: number | undefined;
  readonly size: number;
  constructor(path: string) {
    this.fd = openSync(path, 'r');
    this.size = fstatSync(this.fd).size;
  }
  read(into: Uint8Array, position: number): number {
    if (this.fd === undefined) throw new Error('the index file is closed');
    let done = 0;
    while (done < into.length) {
      const n = readSync(this.fd, into, done, into.length - done, position + done);
      if (n === 0) break;
      done += n;
    }
    return done;
  }
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

function pieces(data: Uint8Array | readonly Uint8Array[]): readonly Uint8Array[] {
  return data instanceof Uint8Array ? [data] : data;
}

/** Why a workspace file was not read (`reason` is the confined reader's). */
export class FileNotReadError extends Error {
  constructor(
    readonly path: string,
    readonly reason: ReadRefusal,
  ) {
    super(`${path}: not read (${reason})`);
    this.name = 'FileNotReadError';
  }
}

/**
 * node:fs under one root folder, through the confined reader. Local files are read with the
 * synchronous calls: on a warm cache one stat + read costs ~20 µs, where the promise API's
 * thread-pool round trips cost several times more; the indexer yields to the event loop between
 * slices of files, so nothing waits long.
 */
export class NodeFileSystem implements SearchFileSystem {
  /** The buffer `loadSync` reads into (reused: no allocation and no fresh pages per file). */
  private scratch = Buffer.allocUnsafeSlow(256 * 1024);
  private readonly reader: ConfinedReader;
  private readonly grow = (size: number): Buffer => {
    if (size > this.scratch.length) this.scratch = Buffer.allocUnsafeSlow(Math.max(size, this.scratch.length * 2));
    return this.scratch;
  };

  constructor(
    readonly root: string,
    fs?: ReaderFs,
  ) {
    this.reader = new ConfinedReader([root], fs);
  }

  loadSync(path: string, maxBytes: number, unless?: FileStat): LoadedFile | undefined {
    const r = this.reader.read(this.reader.pathOf(path), { maxBytes, overCap: 'refuse', unless, buffer: this.grow, detectBinary: false });
    if (r.ok) return { stat: r.stamp, bytes: r.bytes };
    if ((r.reason === 'too_large' || r.reason === 'unchanged') && r.stamp) return { stat: r.stamp, bytes: undefined };
    if (r.reason === 'unreadable') throw new FileNotReadError(path, r.reason);
    return undefined;
  }

  list(dir: string): Promise<DirEntry[]> {
    const r = this.reader.list(this.reader.pathOf(dir));
    if (!r.ok) return Promise.reject(new FileNotReadError(dir, r.reason));
    return Promise.resolve(r.entries.map((e) => ({ name: e.name, kind: e.name.includes('\uFFFD') && this.undecodable(dir, e.name) ? 'undecodable' : e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'other' })));
  }

  /** Whether a listed name with U+FFFD came from bytes that are not UTF-8: its decoded form names nothing. */
  private undecodable(dir: string, name: string): boolean {
    return !this.reader.stat(this.reader.pathOf(join(dir, name))).ok;
  }

  stat(path: string): Promise<FileStat | undefined> {
    const r = this.reader.stat(this.reader.pathOf(path));
    return Promise.resolve(r.ok ? r.stamp : undefined);
  }

  read(path: string, maxBytes: number): Promise<Uint8Array> {
    const r = this.reader.read(this.reader.pathOf(path), { maxBytes, overCap: 'refuse', detectBinary: false });
    return r.ok ? Promise.resolve(r.bytes) : Promise.reject(new FileNotReadError(path, r.reason));
  }
}

/** Writes so far in this process: each write has its own temporary file. */
let writes = 0;

/** Files in one folder (created on first write). */
export class NodeIndexStorage implements IndexStorage {
  constructor(private readonly dir: string) {}

  async read(name: string): Promise<Uint8Array | undefined> {
    try {
      return await fsp.readFile(join(this.dir, name));
    } catch {
      return undefined;
    }
  }

  async write(name: string, data: Uint8Array | readonly Uint8Array[]): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true });
    // Write then rename, so a crash mid-write never leaves a half file under the real name (an
    // open reader of the old file keeps reading the old one).
    const tmp = join(this.dir, `${name}.${process.pid}.${++writes}.tmp`);
    try {
      const handle = await fsp.open(tmp, 'w');
      try {
        for (const piece of pieces(data)) await handle.write(piece);
      } finally {
        await handle.close();
      }
      await fsp.rename(tmp, join(this.dir, name));
    } catch (error) {
      // A full disk leaves part of the temporary file: each failed write would add one.
      await fsp.rm(tmp, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  async delete(name: string): Promise<void> {
    await fsp.rm(join(this.dir, name), { force: true });
  }

  open(name: string): Promise<RandomAccessFile | undefined> {
    try {
      return Promise.resolve(new NodeRandomAccessFile(join(this.dir, name)));
    } catch {
      return Promise.resolve(undefined);
    }
  }
}

/** In-memory storage (tests, and a workspace without storage). */
export class MemoryIndexStorage implements IndexStorage {
  readonly files = new Map<string, Uint8Array>();
  read(name: string): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.files.get(name));
  }
  write(name: string, data: Uint8Array | readonly Uint8Array[]): Promise<void> {
    this.files.set(name, data instanceof Uint8Array ? data : Buffer.concat(data));
    return Promise.resolve();
  }
  delete(name: string): Promise<void> {
    this.files.delete(name);
    return Promise.resolve();
  }
  open(name: string): Promise<RandomAccessFile | undefined> {
    const bytes = this.files.get(name);
    return Promise.resolve(bytes ? new BytesFile(bytes) : undefined);
  }
}
