import { open } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { skillsSection } from '../core/agent/customization';
import { instructionsTokenBudget, loadFolderInstructions, MAX_INSTRUCTIONS_BYTES, type FolderInput, type InstructionsReader } from '../core/agent/instructions';
import type { Logger } from '../core/log';
import { readWorkspaceBytes } from '../platform/workspaceFiles';
import { CustomizationFiles, userSettingPath } from './customizations';
import type { WorkspaceTrustGate } from './workspaceTrust';
import { stratusConfiguration } from '../platform/settings';

/**
 * The one reader of repository instructions (AGENTS.md, .github/copilot-instructions.md,
 * .github/instructions/*.instructions.md, and the user's own file), for the @stratus agent turn
 * (`load`) and Edit with Instruction (`forFile`): the pure discovery and capping of
 * src/core/agent/instructions over the confined workspace reader, one load per folder involved.
 * The trust gate decides whether repository files are read (Restricted Mode: not; only the user's
 * own file). What was read is cached (file contents and folder listings, absent files included)
 * and dropped by a file watcher on those names, a trust grant (the gate's onDidChange), a change
 * of folders or of the settings, so a turn's rounds and later turns never re-read a file that did
 * not change.
 */
const WATCHED = ['**/AGENTS.md', '**/.github/copilot-instructions.md', '**/.github/instructions/*.instructions.md'];

export interface TurnInstructions {
  /** The system-message section; '' when nothing applies. */
  readonly text: string;
  /** The files sent, for the answer's references. */
  readonly used: readonly vscode.Uri[];
  /** One line per file cut or left out to fit the model's context. */
  readonly cuts: readonly string[];
  /** Repository instructions were not read (untrusted workspace). */
  readonly untrustedSkipped: boolean;
}

function folderRelative(folder: vscode.WorkspaceFolder, uri: vscode.Uri): string | undefined {
  if (folder.uri.scheme !== uri.scheme) return undefined;
  const rel = folder.uri.scheme === 'file' ? relative(folder.uri.fsPath, uri.fsPath) : uri.path.slice(folder.uri.path.replace(/\/$/, '').length + 1);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** `stratus.agent.instructionsFile` as a local path (`~` expanded); undefined when unset or relative. */
export const userInstructionsPath = userSettingPath;

export class InstructionsService implements vscode.Disposable {
  private readonly files = new Map<string, Promise<string | undefined>>();
  private readonly lists = new Map<string, Promise<readonly string[]>>();
  private user: { path: string; text: Promise<string | undefined>; watcher: vscode.Disposable } | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** The files read from disk since the cache was last cleared (tests check that rounds and turns hit the cache). */
  readLog: string[] = [];
  /** Times the cache was cleared (a test tells a turn that met a file event from one that did not). */
  clears = 0;
  /** Prompt files, custom agents and skills (issue 35), behind the same trust gate. */
  readonly customizations: CustomizationFiles;

  constructor(
    private readonly logger: Logger,
    private readonly trust: Pick<WorkspaceTrustGate, 'allows' | 'onDidChange'>,
  ) {
    this.customizations = new CustomizationFiles(logger, trust);
    const clear = (): void => this.clear();
    for (const pattern of WATCHED) {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      this.disposables.push(watcher, watcher.onDidChange(clear), watcher.onDidCreate(clear), watcher.onDidDelete(clear));
    }
    this.disposables.push(
      trust.onDidChange(clear),
      vscode.workspace.onDidChangeWorkspaceFolders(clear),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (/(^|\/)(AGENTS\.md|copilot-instructions\.md|[^/]+\.instructions\.md)$/.test(d.uri.path)) clear();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('stratus.agent.instructionsFile')) this.dropUser();
      }),
    );
  }

  /** Forgets every cached read. */
  clear(): void {
    this.clears++;
    this.readLog = [];
    this.files.clear();
    this.lists.clear();
    this.dropUser();
  }

  private dropUser(): void {
    this.user?.watcher.dispose();
    this.user = undefined;
  }

  dispose(): void {
    this.dropUser();
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  /**
   * The instructions for a turn whose files are `contextUris` (attachments, files the tools
   * touched); undefined when `stratus.agent.useInstructionFiles` is off. The skills are listed
   * only with `skills` (the turn offers stratus_readSkill: the section tells the model to call it),
   * within what the instructions left of their token budget.
   */
  async load(contextUris: readonly vscode.Uri[], maxModelLen: number, options: { readonly skills?: boolean } = {}): Promise<TurnInstructions | undefined> {
    const settings = stratusConfiguration('stratus');
    if (settings.get<boolean>('agent.useInstructionFiles', true) === false) return undefined;
    const folders = vscode.workspace.workspaceFolders ?? [];
    const byFolder = new Map<vscode.WorkspaceFolder, string[]>();
    for (const uri of contextUris) {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      const rel = folder ? folderRelative(folder, uri) : undefined;
      if (!folder || rel === undefined) continue;
      byFolder.set(folder, [...(byFolder.get(folder) ?? []), rel]);
    }
    // The folders the turn's files are in; with none, every folder (each one's root instructions).
    const involved = byFolder.size > 0 ? folders.filter((f) => byFolder.has(f)) : folders;
    const inputs: FolderInput[] = involved.map((folder) => ({ name: folder.name, reader: this.reader(folder), contextFiles: byFolder.get(folder) ?? [] }));
    const userPath = userInstructionsPath(settings.get<unknown>('agent.instructionsFile'));
    const userText = userPath ? await this.userText(userPath) : undefined;
    const loaded = await loadFolderInstructions(
      inputs,
      { trusted: this.trust.allows('context'), ...(userPath && userText !== undefined ? { userFile: { path: userPath, text: userText } } : {}) },
      maxModelLen,
    );
    const used = loaded.sources.map((s) => {
      const folder = s.folder === undefined ? undefined : involved.find((f) => f.name === s.folder);
      return folder ? vscode.Uri.joinPath(folder.uri, ...s.path.split('/')) : vscode.Uri.file(s.path);
    });
    const skills = options.skills === true && !loaded.untrustedSkipped ? await this.skillsText(Math.max(0, instructionsTokenBudget(maxModelLen) - loaded.tokens - 1)) : '';
    const text = [loaded.text, skills].filter((t) => t !== '').join('\n\n');
    return { text, used, cuts: loaded.cuts.map((c) => c.note), untrustedSkipped: loaded.untrustedSkipped };
  }

  /** Skills: their names and descriptions only (stratus_readSkill reads the rest when asked), those left out named in the log. */
  private async skillsText(maxTokens: number): Promise<string> {
    const section = skillsSection((await this.customizations.skills()).items.map((s) => s.file), 'stratus_readSkill', maxTokens);
    if (section.leftOut.length > 0) this.logger.info(`Skills not listed in the system message (${section.leftOut.length}, to fit the model's context): ${section.leftOut.join(', ')}`);
    return section.text;
  }

  /**
   * The repository instructions that apply to one file being edited (its folder's AGENTS.md,
   * copilot-instructions, applyTo files), as one text; '' outside a workspace folder, in
   * Restricted Mode, when `stratus.agent.useInstructionFiles` is off, or when reading fails
   * (instructions are context, never a reason an edit cannot start).
   */
  async forFile(uri: vscode.Uri, maxModelLen: number): Promise<string> {
    if (stratusConfiguration('stratus').get<boolean>('agent.useInstructionFiles', true) === false) return '';
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const rel = folder ? folderRelative(folder, uri) : undefined;
    if (!folder || rel === undefined) return '';
    try {
      const loaded = await loadFolderInstructions([{ name: folder.name, reader: this.reader(folder), contextFiles: [rel] }], { trusted: this.trust.allows('context') }, maxModelLen);
      return loaded.text;
    } catch (error) {
      this.logger.warn('Cannot read the repository instructions for an edit', error);
      return '';
    }
  }

  private reader(folder: vscode.WorkspaceFolder): InstructionsReader {
    const key = (rel: string): string => `${folder.uri.toString()}\u0000${rel}`;
    return {
      readFile: (rel) => {
        let pending = this.files.get(key(rel));
        if (!pending) {
          pending = this.readWorkspace(vscode.Uri.joinPath(folder.uri, ...rel.split('/')));
          this.files.set(key(rel), pending);
        }
        return pending;
      },
      listFiles: (rel) => {
        let pending = this.lists.get(key(rel));
        if (!pending) {
          pending = Promise.resolve(vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder.uri, ...rel.split('/')))).then(
            (entries) => entries.filter(([, type]) => (type & vscode.FileType.File) !== 0).map(([name]) => name),
            () => [],
          );
          this.lists.set(key(rel), pending);
        }
        return pending;
      },
    };
  }

  /** Through the confined reader: a link that leaves the workspace is refused, the size capped. */
  private async readWorkspace(uri: vscode.Uri): Promise<string | undefined> {
    this.logRead(uri.toString());
    const read = await readWorkspaceBytes(uri, { maxBytes: MAX_INSTRUCTIONS_BYTES, overCap: 'truncate' });
    if (!read.ok || read.binary) return undefined;
    return new TextDecoder('utf-8').decode(read.bytes);
  }

  private logRead(what: string): void {
    this.readLog.push(what);
    if (this.readLog.length > 100) this.readLog.shift();
  }

  /** The user's file (outside the workspace, chosen by the user): read with node fs, watched. */
  private userText(path: string): Promise<string | undefined> {
    if (this.user?.path === path) return this.user.text;
    this.dropUser();
    const text = this.readUser(path);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dirname(path)), basename(path)));
    const drop = (): void => this.dropUser();
    const subscriptions = vscode.Disposable.from(watcher, watcher.onDidChange(drop), watcher.onDidCreate(drop), watcher.onDidDelete(drop));
    this.user = { path, text, watcher: subscriptions };
    return text;
  }

  private async readUser(path: string): Promise<string | undefined> {
    this.logRead(path);
    try {
      const handle = await open(path, 'r');
      try {
        const info = await handle.stat();
        if (!info.isFile()) return undefined;
        const buffer = Buffer.alloc(Math.min(info.size, MAX_INSTRUCTIONS_BYTES));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        return new TextDecoder('utf-8').decode(buffer.subarray(0, bytesRead));
      } finally {
        await handle.close();
      }
    } catch (error) {
      this.logger.warn(`Cannot read stratus.agent.instructionsFile (${path})`, error);
      return undefined;
    }
  }
}
