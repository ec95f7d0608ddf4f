import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { CheckpointHistory, TurnRecorder, type CheckpointFileSystem, type CheckpointStorage, type TurnCheckpoint } from '../core/agent/checkpoints';
import type { ToolInvoker } from '../core/agent';
import type { Logger } from '../core/log';
import { readWorkspaceBytes } from '../platform/workspaceFiles';
import { STRATUS_TOOL_PREFIX, ToolNames } from '../core/agent/toolNames';
import { stratusConfiguration } from '../platform/settings';

/**
 * Checkpoints of @stratus turns: while a turn runs, every file one of its tools changes is
 * snapshotted before the tool's first change and hashed after its last (`recordChange`), so Undo
 * finds a change the user made meanwhile (during the turn or after it) and asks before
 * overwriting it. When the turn ends its checkpoint joins the persisted history
 * (`checkpoints.json` in workspace storage, the last `stratus.agent.checkpointTurns` turns).
 *
 * What is recorded, and why: Stratus' writing tools (proposeEdit, createFile) report their change
 * exactly. Tools whose writes are seen only as workspace events (other extensions' tools, a VS
 * Code command run by stratus_runCommand) open a window while they run: text changes, creations
 * and deletions seen in it are theirs (their "before" is the disk, or a document's unsaved text
 * when the window opened; a user typing while such a tool runs, its confirmation included, cannot
 * be told apart). Files written by a task or a terminal command (a build, a formatter run as a
 * process) cannot be attributed to the tool rather than to the user or a watcher, so they are not
 * recorded: Undo never touches them. Changes seen outside every window are the user's: never in
 * the checkpoint.
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
  const value = stratusConfiguration('stratus').get<unknown>('agent.checkpointTurns', 10);
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(100, Math.max(0, Math.floor(value))) : 10;
}

/** What a tool wraps its change in, so the turn's checkpoint holds exactly that change. */
export type RecordChange = <T>(uri: vscode.Uri, change: () => Thenable<T>) => Promise<T>;

/** No checkpoint: the change alone. */
export const unrecorded: RecordChange = async (_uri, change) => change();

/** Tools whose writes are seen only as workspace events: other extensions' tools, and a VS Code command. */
function writesUnreported(name: string): boolean {
  return !name.startsWith(STRATUS_TOOL_PREFIX) || name === ToolNames.runCommand;
}

function dirtyTexts(): Map<string, string> {
  const unsaved = new Map<string, string>();
  for (const doc of vscode.workspace.textDocuments) if (doc.isDirty && trackable(doc.uri)) unsaved.set(doc.uri.toString(), doc.getText());
  return unsaved;
}

/** One running turn: its recorder, and the windows in which a tool's writes are seen as events. */
class Recording {
  readonly recorder: TurnRecorder;
  /** Where the next snapshot of a path comes from, for changes seen after the fact. */
  private readonly sources = new Map<string, 'disk' | 'missing' | string>();
  /** The paths changed in each open window. */
  readonly windows = new Set<Set<string>>();
  /** Documents' unsaved text when the latest window opened: the "before" of a change seen in it. */
  private unsaved = new Map<string, string>();

  constructor() {
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

  /** A change already made, seen in a window: its before is the disk (or the text when the window opened). */
  afterTheFact(uri: vscode.Uri, source?: 'missing'): void {
    const path = uri.toString();
    for (const window of this.windows) window.add(path);
    if (this.recorder.changes().includes(path)) return;
    this.sources.set(path, source ?? this.unsaved.get(path) ?? 'disk');
    void this.recorder.beforeChange(path).catch(() => undefined);
  }

  /** Before a change that is seen only as events: a deletion, while the file is still there. */
  async beforeDeletion(uri: vscode.Uri): Promise<void> {
    const path = uri.toString();
    for (const window of this.windows) window.add(path);
    await this.recorder.beforeChange(path).catch(() => undefined);
  }

  /** Runs a tool whose writes are seen only as events; what it left is recorded when it returns. */
  async watch<T>(run: () => Promise<T>): Promise<T> {
    const window = new Set<string>();
    this.unsaved = dirtyTexts();
    this.windows.add(window);
    try {
      return await run();
    } finally {
      this.windows.delete(window);
      await Promise.all([...window].map((path) => this.recorder.afterChange(path).catch(() => undefined)));
    }
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
        const watching = [...this.recordings].filter((r) => r.windows.size > 0);
        const files = event.files.filter(trackable);
        if (watching.length > 0 && files.length > 0) event.waitUntil(Promise.all(watching.flatMap((r) => files.map((uri) => r.beforeDeletion(uri)))));
      }),
    );
  }

  /** A change seen as an event: the turn's only while one of its tools that writes unreported runs. */
  private seen(uri: vscode.Uri, source?: 'missing'): void {
    if (this.recordings.size === 0 || !trackable(uri)) return;
    for (const recording of this.recordings) if (recording.windows.size > 0) recording.afterTheFact(uri, source);
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
  begin(): { finish(): Promise<TurnCheckpoint | undefined>; watch(invoker: ToolInvoker): ToolInvoker } {
    const recording = new Recording();
    this.recordings.add(recording);
    return {
      watch: (invoker) => ({
        invoke: (invocation, signal) => (writesUnreported(invocation.name) ? recording.watch(() => invoker.invoke(invocation, signal)) : invoker.invoke(invocation, signal)),
      }),
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

  /** Stratus' tools make their change through this: snapshotted before it in every running turn, hashed after it. */
  async recordChange<T>(uri: vscode.Uri, change: () => Thenable<T>): Promise<T> {
    const recordings = trackable(uri) ? [...this.recordings] : [];
    const path = uri.toString();
    await Promise.all(recordings.map((r) => r.recorder.beforeChange(path).catch(() => undefined)));
    try {
      return await change();
    } finally {
      await Promise.all(recordings.map((r) => r.recorder.afterChange(path).catch(() => undefined)));
    }
  }

  dispose(): void {
    for (const listener of this.listeners) listener.dispose();
    this.recordings.clear();
  }
}
