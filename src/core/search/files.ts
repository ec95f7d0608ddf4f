import { promises as fsp } from 'node:fs';
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

/** node:fs under one root folder. */
export class NodeFileSystem implements SearchFileSystem {
  constructor(private readonly root: string) {}

  async list(dir: string): Promise<DirEntry[]> {
    const entries = await fsp.readdir(join(this.root, dir), { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, kind: e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'other' }));
  }

  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const s = await fsp.stat(join(this.root, path));
      return s.isFile() ? { size: s.size, mtime: s.mtimeMs } : undefined;
    } catch {
      return undefined;
    }
  }

  read(path: string): Promise<Uint8Array> {
    return fsp.readFile(join(this.root, path));
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
