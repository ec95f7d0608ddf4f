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
  constructor(private readonly root: string) {}

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
    const tmp = join(this.dir, `${name}.${process.pid}.tmp`);
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
