import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { CacheStore } from '../../core/documents/cache';

/**
 * Read documents kept as `<sha256>.json` in the workspace's storage folder (global storage when no
 * folder is open). Keys are hex digests, so they are safe file names; writes go through a
 * temporary file so a crash never leaves half an entry.
 */
export class FileCacheStore implements CacheStore {
  constructor(private readonly folder: string | undefined) {}

  private file(key: string): string | undefined {
    return this.folder && /^[0-9a-f]{64}$/.test(key) ? path.join(this.folder, `${key}.json`) : undefined;
  }

  async read(key: string): Promise<string | undefined> {
    const file = this.file(key);
    if (!file) return undefined;
    try {
      return await readFile(file, 'utf8');
    } catch {
      return undefined;
    }
  }

  async write(key: string, value: string): Promise<void> {
    const file = this.file(key);
    if (!file || !this.folder) return;
    await mkdir(this.folder, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, value, 'utf8');
    await rename(temporary, file);
  }
}
