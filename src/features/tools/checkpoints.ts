import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { CheckpointHistory, TurnRecorder, type CheckpointFileSystem, type CheckpointStorage, type TurnCheckpoint } from '../../core/agent/checkpoints';
import type { Logger } from '../../core/log';
import { readWorkspaceBytes } from '../../platform/workspaceFiles';

/**
 * Checkpoints of @stratus turns: while a turn runs, every file it changes is snapshotted before
 * its first change, whether the change comes from Stratus' tools (they call `beforeChange`) or
 * from VS Code's other tools (seen through workspace events: a text document changing, a file
 * about to be created or deleted). When the turn ends its checkpoint joins the persisted history
 * (`checkpoints.json` in workspace storage, the last `stratus.agent.checkpointTurns` turns).
 *
 * Documents VS Code's other tools edit are snapshotted after the edit (the event comes after), so
 * their "before" is the disk (or, for a document already unsaved when the turn began, its text
 * then), not the edited document.
 */

const MAX_READ_BYTES = 64 * 1024 * 1024;
export const CHECKPOINT_FILE = 'checkpoints.json';

/** What the file holds now: the open document's text wins over the disk. */
export async function currentBytes(uri: vscode.Uri): Promise<Uint8Array | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open && !open.isClosed) return new TextEncoder().encode(open.getText());
  return diskBytes(uri);
}

async function diskBytes(uri: vscode.Uri): Promise<Uint8Array | undefined> {
  const read = await readWorkspaceBytes(uri, { maxBytes: MAX_READ_BYTES, overCap: 'refuse' });
  if (read.ok) return read.bytes;
  if (read.reason === 'gone') return undefined;
  throw new Error(`cannot read ${uri.fsPath}: ${read.reason}`);
}

/** A file of a workspace folder on disk: the only ones checkpoints follow. */
export function trackable(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && vscode.workspace.getWorkspaceFolder(uri) !== undefined;
}

/** The checkpoint file system over URIs (as strings, the paths of the checkpoint). */
export const workspaceCheckpointFs: CheckpointFileSystem = { read: (path) => currentBytes(vscode.Uri.parse(path)) };

export function storageAt(dir: string | undefined): CheckpointStorage {
  if (dir === undefined) {
    let kept: string | undefined;
    return { read: async () => kept, write: async (text) => void (kept = text), setAside: async () => undefined };
  }
  const file = join(dir, CHECKPOINT_FILE);
  return {
    read: async () => readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error))),
    write: async (text) => {
      await mkdir(dir, { recursive: true });
      // A file of its own per write, renamed over the store: a reader never sees half of one.
      const temporary = `${file}.${randomUUID()}.tmp`;
      await writeFile(temporary, text, 'utf8');
      await rename(temporary, file);
    },
    setAside: async (text) => {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `checkpoints.corrupt-${Date.now()}.json`), text, 'utf8');
    },
  };
}

export function checkpointTurnsSetting(): number {
  const value = vscode.workspace.getConfiguration('stratus').get<unknown>('agent.checkpointTurns', 10);
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(100, Math.max(0, Math.floor(value))) : 10;
}

/** One running turn: its recorder, and the text of documents already unsaved when it began. */
class Recording {
  readonly recorder: TurnRecorder;
  /** Where the next snapshot of a path comes from, for changes seen after the fact. */
  private readonly sources = new Map<string, 'disk' | 'missing' | string>();

  constructor(private readonly unsavedAtStart: ReadonlyMap<string, string>) {
    this.recorder = new TurnRecorder(randomUUID(), {
      read: async (path) => {
        const source = this.sources.get(path);
        this.sources.delete(path);
        if (source === 'missing') return undefined;
        if (source === 'disk') return diskBytes(vscode.Uri.parse(path));
        if (source !== undefined) return new TextEncoder().encode(source);
        return workspaceCheckpointFs.read(path);
      },
    });
  }

  /** A change already made (a document edited by someone else): its before is the start of the turn. */
  afterTheFact(uri: vscode.Uri, source?: 'missing'): void {
    const path = uri.toString();
    if (this.recorder.changes().includes(path)) return;
    this.sources.set(path, source ?? this.unsavedAtStart.get(path) ?? 'disk');
    void this.recorder.beforeChange(path).catch(() => undefined);
  }
}

export class TurnCheckpoints implements vscode.Disposable {
  private readonly recordings = new Set<Recording>();
  private readonly listeners: vscode.Disposable[] = [];
  private history: Promise<CheckpointHistory> | undefined;

  constructor(
    private readonly storage: CheckpointStorage,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.listeners.push(
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.seen(event.document.uri);
      }),
      vscode.workspace.onWillCreateFiles((event) => {
        for (const uri of event.files) this.seen(uri, 'missing');
      }),
      vscode.workspace.onWillDeleteFiles((event) => {
        // Before the deletion: the file is still there to be read.
        if (this.recordings.size > 0) event.waitUntil(Promise.all(event.files.map((uri) => this.beforeChange(uri))));
      }),
    );
  }

  private seen(uri: vscode.Uri, source?: 'missing'): void {
    if (this.recordings.size === 0 || !trackable(uri)) return;
    for (const recording of this.recordings) recording.afterTheFact(uri, source);
  }

  /** The persisted history, loaded on first use (a corrupt store is set aside). */
  loadHistory(): Promise<CheckpointHistory> {
    this.history ??= CheckpointHistory.load(this.storage, { maxTurns: checkpointTurnsSetting(), maxChars: 16 * 1024 * 1024 }).then(({ history, setAside }) => {
      if (setAside) this.logger.warn(`The stored checkpoints were unreadable (${setAside}); they were set aside and the history starts empty.`);
      return history;
    });
    return this.history;
  }

  /** Starts recording a turn; `finish` ends it and stores its checkpoint (undefined when it changed nothing). */
  begin(): { finish(): Promise<TurnCheckpoint | undefined> } {
    const unsaved = new Map<string, string>();
    for (const doc of vscode.workspace.textDocuments) if (doc.isDirty && trackable(doc.uri)) unsaved.set(doc.uri.toString(), doc.getText());
    const recording = new Recording(unsaved);
    this.recordings.add(recording);
    return {
      finish: async () => {
        this.recordings.delete(recording);
        try {
          const checkpoint = await recording.recorder.finish(this.now());
          if (checkpoint.files.length === 0 || checkpointTurnsSetting() === 0) return undefined;
          await (await this.loadHistory()).add(checkpoint);
          return checkpoint;
        } catch (error) {
          this.logger.warn(`The turn's checkpoint could not be kept: ${error instanceof Error ? error.message : String(error)}`);
          return undefined;
        }
      },
    };
  }

  /** Called by Stratus' tools before they change a file: snapshots it in every running turn. */
  async beforeChange(uri: vscode.Uri): Promise<void> {
    if (!trackable(uri)) return;
    await Promise.all([...this.recordings].map((r) => r.recorder.beforeChange(uri.toString()).catch(() => undefined)));
  }

  dispose(): void {
    for (const listener of this.listeners) listener.dispose();
    this.recordings.clear();
  }
}
