import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { ConfinedReader, type ReaderFs, type ReadRefusal } from '../workspace/confinedReader';

/** One entry of a directory listing. */
export interface DirEntry {
  name: string;
  kind: 'file' | 'directory' | 'other';
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

/** Where the persisted index lives (the extension's workspace storage). */
export interface IndexStorage {
  read(name: string): Promise<Uint8Array | undefined>;
  write(name: string, data: Uint8Array): Promise<void>;
  delete(name: string): Promise<void>;
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
    return Promise.resolve(r.entries.map((e) => ({ name: e.name, kind: e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'other' })));
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

  async write(name: string, data: Uint8Array): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true });
    // Write then rename, so a crash mid-write never leaves a half file under the real name.
    const tmp = join(this.dir, `${name}.${process.pid}.${++writes}.tmp`);
    try {
      await fsp.writeFile(tmp, data);
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
}

/** In-memory storage (tests, and a workspace without storage). */
export class MemoryIndexStorage implements IndexStorage {
  readonly files = new Map<string, Uint8Array>();
  read(name: string): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.files.get(name));
  }
  write(name: string, data: Uint8Array): Promise<void> {
    this.files.set(name, data);
    return Promise.resolve();
  }
  delete(name: string): Promise<void> {
    this.files.delete(name);
    return Promise.resolve();
  }
}
