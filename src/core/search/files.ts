import { closeSync, fstatSync, openSync, promises as fsp, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
 */
export interface SearchFileSystem {
  list(dir: string): Promise<DirEntry[]>;
  /** undefined when the file is gone. */
  stat(path: string): Promise<FileStat | undefined>;
  read(path: string): Promise<Uint8Array>;
  /**
   * Optional (local disks): stat and read a file in one synchronous call, for the bulk build.
   * `bytes` is undefined when the file is larger than `maxBytes` or its size and time equal
   * `unless` (unchanged: not read), and is only valid until the next call (one buffer is reused).
   * undefined when the file is gone; throws when it cannot be read.
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

/**
 * node:fs under one root folder. Local files are read with the synchronous calls: on a warm cache
 * one stat + read costs ~20 µs, where the promise API's thread-pool round trips cost several times
 * more; the indexer yields to the event loop between slices of files, so nothing waits long.
 */
export class NodeFileSystem implements SearchFileSystem {
  /** The buffer `loadSync` reads into (reused: no allocation and no fresh pages per file). */
  private scratch = Buffer.allocUnsafeSlow(256 * 1024);

  constructor(readonly root: string) {}

  loadSync(path: string, maxBytes: number, unless?: FileStat): LoadedFile | undefined {
    let fd: number;
    try {
      fd = openSync(`${this.root}/${path}`, 'r');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT' || (error as { code?: unknown }).code === 'ENOTDIR') return undefined;
      throw error;
    }
    try {
      const s = fstatSync(fd);
      if (!s.isFile()) return undefined;
      const stat = { size: s.size, mtime: s.mtimeMs };
      if (s.size > maxBytes || (unless && unless.size === stat.size && unless.mtime === stat.mtime)) return { stat, bytes: undefined };
      if (s.size > this.scratch.length) this.scratch = Buffer.allocUnsafeSlow(Math.max(s.size, this.scratch.length * 2));
      const buf = this.scratch;
      let off = 0;
      while (off < s.size) {
        const n = readSync(fd, buf, off, s.size - off, off);
        if (n === 0) break;
        off += n;
      }
      return { stat, bytes: buf.subarray(0, off) };
    } finally {
      closeSync(fd);
    }
  }

  list(dir: string): Promise<DirEntry[]> {
    try {
      const entries = readdirSync(join(this.root, dir), { withFileTypes: true });
      return Promise.resolve(entries.map((e) => ({ name: e.name, kind: e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'other' })));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  stat(path: string): Promise<FileStat | undefined> {
    try {
      const s = statSync(join(this.root, path));
      return Promise.resolve(s.isFile() ? { size: s.size, mtime: s.mtimeMs } : undefined);
    } catch {
      return Promise.resolve(undefined);
    }
  }

  read(path: string): Promise<Uint8Array> {
    let fd: number | undefined;
    try {
      fd = openSync(join(this.root, path), 'r');
      const size = fstatSync(fd).size;
      const buf = Buffer.allocUnsafe(size);
      let off = 0;
      while (off < size) {
        const n = readSync(fd, buf, off, size - off, off);
        if (n === 0) break;
        off += n;
      }
      return Promise.resolve(off === size ? buf : buf.subarray(0, off));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
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
    await fsp.writeFile(tmp, data);
    await fsp.rename(tmp, join(this.dir, name));
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
