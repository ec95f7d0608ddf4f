import { openAsBlob, watch } from 'node:fs';
import { open as openHandle, stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { AudioFileError } from './errors';
import { describeContent, detectAudioFormat, HEADER_BYTES, headerDurationSeconds, mimeTypeOf, type AudioFormat } from './format';

/** An audio file checked before upload: its format (by content), size and a streaming Blob. */
export interface AudioFile {
  readonly path: string;
  readonly fileName: string;
  readonly size: number;
  readonly format: AudioFormat;
  readonly mimeType: string;
  /** From the header for WAV and FLAC; otherwise unknown until the service answers. */
  readonly durationSeconds: number | undefined;
  /** File-backed: reading it streams from disk (again on a retry); nothing is buffered here. */
  readonly blob: Blob;
  /** Last modification time seen by the check (ms). */
  readonly mtimeMs: number;
  /** Whether the file's size or modification time differ from the check's (or it is gone). */
  changedSinceProbe(): Promise<boolean>;
  /**
   * Calls `onChange` when the file is written, renamed or removed (a file-backed Blob can no
   * longer be read then, and an HTTP engine may wait for it forever). Dispose to stop watching.
   */
  watchChanges(onChange: () => void): { dispose(): void };
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Checks a local file before anything is uploaded: exists, is a regular file, readable, not
 * empty, not over `maxBytes`, and audio by its first bytes (only `HEADER_BYTES` are read).
 * Every refusal is an AudioFileError with the figures the message needs.
 */
export async function probeAudioFile(path: string, options: { maxBytes: number; fileName?: string }): Promise<AudioFile> {
  const fileName = options.fileName ?? basename(path);
  let handle: FileHandle | undefined;
  try {
    try {
      handle = await openHandle(path, 'r');
    } catch (error) {
      const code = codeOf(error);
      if (code === 'ENOENT') throw new AudioFileError(`${fileName} does not exist`, 'not_found', { fileName, code });
      if (code === 'EISDIR') throw new AudioFileError(`${fileName} is a folder`, 'not_a_file', { fileName, code });
      throw new AudioFileError(`Cannot open ${fileName}`, 'unreadable', { fileName, code });
    }
    let size: number;
    let mtimeMs: number;
    let header: Uint8Array;
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new AudioFileError(`${fileName} is not a regular file`, 'not_a_file', { fileName });
      size = info.size;
      mtimeMs = info.mtimeMs;
      if (size === 0) throw new AudioFileError(`${fileName} is empty`, 'empty', { fileName, size });
      if (size > options.maxBytes) throw new AudioFileError(`${fileName} is over the size limit`, 'too_large', { fileName, size, limitBytes: options.maxBytes });
      const buffer = new Uint8Array(Math.min(HEADER_BYTES, size));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      header = buffer.subarray(0, bytesRead);
    } catch (error) {
      if (error instanceof AudioFileError) throw error;
      const code = codeOf(error);
      if (code === 'EISDIR') throw new AudioFileError(`${fileName} is a folder`, 'not_a_file', { fileName, code });
      throw new AudioFileError(`Cannot read ${fileName}`, 'unreadable', { fileName, code });
    }
    const format = detectAudioFormat(header);
    if (!format) {
      throw new AudioFileError(`${fileName} is not audio`, 'unsupported_format', { fileName, size, content: describeContent(header) });
    }
    const mimeType = mimeTypeOf(format);
    let blob: Blob;
    try {
      blob = await openAsBlob(path, { type: mimeType });
    } catch (error) {
      throw new AudioFileError(`Cannot read ${fileName}`, 'unreadable', { fileName, code: codeOf(error) });
    }
    const changedSinceProbe = async (): Promise<boolean> => {
      try {
        const now = await stat(path);
        return now.size !== size || now.mtimeMs !== mtimeMs;
      } catch {
        return true;
      }
    };
    const watchChanges = (onChange: () => void): { dispose(): void } => {
      try {
        const watcher = watch(path, { persistent: false }, () => onChange());
        watcher.on('error', () => onChange());
        return { dispose: () => watcher.close() };
      } catch {
        // Watching is best effort (some network file systems refuse it).
        return { dispose: () => undefined };
      }
    };
    return { path, fileName, size, format, mimeType, durationSeconds: headerDurationSeconds(header, format, size), blob, mtimeMs, changedSinceProbe, watchChanges };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Audio held in memory (a chat attachment): the same checks as a file, on the bytes. */
export interface AudioBytes {
  readonly fileName: string;
  readonly size: number;
  readonly format: AudioFormat;
  readonly mimeType: string;
  readonly durationSeconds: number | undefined;
  readonly bytes: Uint8Array;
}

export function checkAudioBytes(bytes: Uint8Array, fileName: string, maxBytes: number): AudioBytes {
  const size = bytes.byteLength;
  if (size === 0) throw new AudioFileError(`${fileName} is empty`, 'empty', { fileName, size });
  if (size > maxBytes) throw new AudioFileError(`${fileName} is over the size limit`, 'too_large', { fileName, size, limitBytes: maxBytes });
  const header = bytes.subarray(0, HEADER_BYTES);
  const format = detectAudioFormat(header);
  if (!format) throw new AudioFileError(`${fileName} is not audio`, 'unsupported_format', { fileName, size, content: describeContent(header) });
  return { fileName, size, format, mimeType: mimeTypeOf(format), durationSeconds: headerDurationSeconds(header, format, size), bytes };
}
