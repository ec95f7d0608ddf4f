import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, sep } from 'node:path';
import * as vscode from 'vscode';
import {
  AGENT_SUFFIXES,
  agentNameOf,
  parseAgentFile,
  parsePromptFile,
  parseSkill,
  ParseCache,
  promptNameOf,
  SKILL_FILE,
  SKILL_FOLDERS,
  type AgentFile,
  type PromptFile,
  type Skill,
} from '../core/agent/customization';
import type { Logger } from '../core/log';
import { readWorkspaceBytes } from '../platform/workspaceFiles';
import type { WorkspaceTrustGate } from './workspaceTrust';
import { stratusConfiguration } from '../platform/settings';

/**
 * The one reader of customization files (issue 35): prompt files (`.github/prompts`, and the
 * user's own folder, `stratus.agent.promptFilesFolder`), custom agents (`.github/agents`,
 * `.github/chatmodes`) and skills (`.github/skills`, `.claude/skills`). Workspace files are read
 * through the confined reader and only when the trust gate allows workspace context: in
 * Restricted Mode none is read (`untrusted` says so); the user's own prompt files still are.
 * Files are read when a command or turn needs them; their parses are kept per file version (the
 * same text is not parsed again: every trusted turn with tools reads all skills).
 */

/** A user setting's local path (`~` expanded); undefined when unset or relative. */
export function userSettingPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const raw = value.trim();
  const path = raw === '~' || raw.startsWith('~/') ? join(homedir(), raw.slice(1)) : raw;
  return isAbsolute(path) ? path : undefined;
}

/** Customization files larger than this are not read (a prompt or agent is a page, not a book). */
export const MAX_CUSTOMIZATION_BYTES = 256 * 1024;
const MAX_FILES_PER_FOLDER = 200;

export interface Located<T> {
  readonly uri: vscode.Uri;
  /** The workspace folder it comes from; undefined for the user's own files. */
  readonly folder: vscode.WorkspaceFolder | undefined;
  readonly file: T;
}

export interface Listed<T> {
  readonly items: readonly Located<T>[];
  /** Workspace files were not read: the workspace is not trusted. */
  readonly untrusted: boolean;
}

export interface SkillFolder extends Located<Skill> {
  /** The skill's folder (SKILL.md's parent). */
  readonly dir: vscode.Uri;
}

export type SkillRead =
  | { readonly ok: true; readonly uri: vscode.Uri; readonly text: string; readonly truncated: boolean; readonly files: readonly string[] }
  | { readonly ok: false; readonly reason: 'untrusted' | 'unknown' | 'gone' | 'outside' | 'not_file' | 'binary' | 'unreadable'; readonly skills?: readonly string[] };

function decode(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

export class CustomizationFiles {
  private readonly promptParses = new ParseCache<PromptFile>();
  private readonly agentParses = new ParseCache<AgentFile>();
  private readonly skillParses = new ParseCache<Skill | undefined>();

  constructor(
    private readonly logger: Logger,
    private readonly trust: Pick<WorkspaceTrustGate, 'allows'>,
  ) {}

  /** Whether workspace customization files may be read (a trusted workspace). */
  get trusted(): boolean {
    return this.trust.allows('context');
  }

  async promptFiles(): Promise<Listed<PromptFile>> {
    // The user's own first: a cloned repository's prompt of the same name does not take it over.
    const items: Located<PromptFile>[] = await this.userPromptFiles();
    if (this.trusted) {
      for (const folder of vscode.workspace.workspaceFolders ?? []) {
        const dir = vscode.Uri.joinPath(folder.uri, '.github', 'prompts');
        for (const name of await this.fileNames(dir, (n) => promptNameOf(n) !== undefined)) {
          const uri = vscode.Uri.joinPath(dir, name);
          const text = await this.readWorkspace(uri);
          if (text !== undefined) items.push({ uri, folder, file: this.promptFile(uri, text, name) });
        }
      }
    }
    // By name without case, as /prompt finds them.
    const kept = unique(items, (i) => i.file.name.toLowerCase(), (shadowed, by) => {
      this.logger.info(`Prompt file ${shadowed.uri.toString(true)} is not offered: ${by.uri.toString(true)} has the same name (${by.file.name})${by.folder ? '' : ", and the user's own prompt files win"}.`);
    });
    return { items: kept, untrusted: !this.trusted };
  }

  /** A prompt file of the workspace by its URI (the editor's Run Prompt File); undefined outside the workspace or untrusted. */
  async promptFileAt(uri: vscode.Uri): Promise<Located<PromptFile> | undefined> {
    const name = uri.path.split('/').pop() ?? '';
    if (promptNameOf(name) === undefined) return undefined;
    const user = (await this.userPromptFiles()).find((p) => p.uri.toString() === uri.toString());
    if (user) return user;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || !this.trusted) return undefined;
    const text = await this.readWorkspace(uri);
    return text === undefined ? undefined : { uri, folder, file: this.promptFile(uri, text, name) };
  }

  async agents(): Promise<Listed<AgentFile>> {
    const items: Located<AgentFile>[] = [];
    if (this.trusted) {
      for (const folder of vscode.workspace.workspaceFolders ?? []) {
        for (const sub of ['agents', 'chatmodes']) {
          const dir = vscode.Uri.joinPath(folder.uri, '.github', sub);
          for (const name of await this.fileNames(dir, (n) => agentNameOf(n) !== undefined && AGENT_SUFFIXES.some((s) => n.toLowerCase().endsWith(s)))) {
            const uri = vscode.Uri.joinPath(dir, name);
            const text = await this.readWorkspace(uri);
            if (text !== undefined) items.push({ uri, folder, file: this.agentParses.get(`${uri.toString()}\0${name}`, text, (t) => parseAgentFile(t, name)) });
          }
        }
      }
    }
    return { items: unique(items, (i) => i.file.name.toLowerCase()), untrusted: !this.trusted };
  }

  async skills(): Promise<{ items: readonly SkillFolder[]; untrusted: boolean }> {
    const items: SkillFolder[] = [];
    if (!this.trusted) return { items, untrusted: true };
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      for (const base of SKILL_FOLDERS) {
        const root = vscode.Uri.joinPath(folder.uri, ...base.split('/'));
        for (const [name, type] of await this.entries(root)) {
          if ((type & vscode.FileType.Directory) === 0) continue;
          const dir = vscode.Uri.joinPath(root, name);
          const uri = vscode.Uri.joinPath(dir, SKILL_FILE);
          const text = await this.readWorkspace(uri);
          if (text === undefined) continue;
          const skill = this.skillParses.get(`${uri.toString()}\0${name}`, text, (t) => parseSkill(t, name).skill);
          if (skill) items.push({ uri, dir, folder, file: skill });
        }
      }
    }
    return { items: unique(items, (i) => i.file.name), untrusted: false };
  }

  /**
   * One file of a skill (SKILL.md by default) through the confined reader, at most `maxBytes`;
   * with SKILL.md, the other files of its folder. Refused when the real path leaves the skill's folder.
   */
  async readSkillFile(name: string, segments: readonly string[], maxBytes: number): Promise<SkillRead> {
    const { items, untrusted } = await this.skills();
    if (untrusted) return { ok: false, reason: 'untrusted' };
    const skill = items.find((s) => s.file.name === name);
    if (!skill) return { ok: false, reason: 'unknown', skills: items.map((s) => s.file.name) };
    const uri = vscode.Uri.joinPath(skill.dir, ...segments);
    if (!(await insideReal(skill.dir, uri))) return { ok: false, reason: 'outside' };
    const read = await readWorkspaceBytes(uri, { maxBytes, overCap: 'truncate' });
    if (!read.ok) return { ok: false, reason: read.reason === 'gone' || read.reason === 'outside' || read.reason === 'not_file' ? read.reason : 'unreadable' };
    if (read.binary) return { ok: false, reason: 'binary' };
    const files = segments.length === 1 && segments[0] === SKILL_FILE ? await this.listTree(skill.dir) : [];
    return { ok: true, uri, text: decode(read.bytes), truncated: read.truncated, files };
  }

  /**
   * The files of a skill's folder (two levels deep, at most 100), as paths relative to it. Links
   * are skipped: a committed `docs -> ~` would list the user's home folder to the model (and a
   * link's target outside the folder could not be read anyway).
   */
  private async listTree(dir: vscode.Uri): Promise<string[]> {
    const out: string[] = [];
    const walk = async (at: vscode.Uri, prefix: string, depth: number): Promise<void> => {
      for (const [name, type] of await this.entries(at)) {
        if (out.length >= 100) return;
        if (type & vscode.FileType.SymbolicLink) continue;
        if (type & vscode.FileType.File) {
          if (!(prefix === '' && name === SKILL_FILE)) out.push(`${prefix}${name}`);
        } else if (type & vscode.FileType.Directory && depth < 2 && !name.startsWith('.')) {
          await walk(vscode.Uri.joinPath(at, name), `${prefix}${name}/`, depth + 1);
        }
      }
    };
    await walk(dir, '', 0);
    return out.sort();
  }

  /** The user's own prompt files (`stratus.agent.promptFilesFolder`, application scope): read with node fs. */
  private async userPromptFiles(): Promise<Located<PromptFile>[]> {
    const folder = userSettingPath(stratusConfiguration('stratus').get<unknown>('agent.promptFilesFolder'));
    if (!folder) return [];
    try {
      const names = (await readdir(folder)).filter((n) => promptNameOf(n) !== undefined).sort().slice(0, MAX_FILES_PER_FOLDER);
      const out: Located<PromptFile>[] = [];
      for (const name of names) {
        const path = join(folder, name);
        const info = await stat(path);
        if (!info.isFile() || info.size > MAX_CUSTOMIZATION_BYTES) continue;
        const uri = vscode.Uri.file(path);
        out.push({ uri, folder: undefined, file: this.promptFile(uri, await readFile(path, 'utf8'), name) });
      }
      return out;
    } catch (error) {
      this.logger.warn(`Cannot read the prompt files of stratus.agent.promptFilesFolder (${folder})`, error);
      return [];
    }
  }

  private promptFile(uri: vscode.Uri, text: string, name: string): PromptFile {
    return this.promptParses.get(`${uri.toString()}\0${name}`, text, (t) => parsePromptFile(t, name));
  }

  private async entries(dir: vscode.Uri): Promise<[string, vscode.FileType][]> {
    try {
      return (await vscode.workspace.fs.readDirectory(dir)).sort(([a], [b]) => a.localeCompare(b)).slice(0, MAX_FILES_PER_FOLDER);
    } catch {
      return [];
    }
  }

  private async fileNames(dir: vscode.Uri, wanted: (name: string) => boolean): Promise<string[]> {
    return (await this.entries(dir)).filter(([name, type]) => (type & vscode.FileType.File) !== 0 && wanted(name)).map(([name]) => name);
  }

  /** Through the confined reader: a link out of the workspace or an oversized file is not read. */
  private async readWorkspace(uri: vscode.Uri): Promise<string | undefined> {
    const read = await readWorkspaceBytes(uri, { maxBytes: MAX_CUSTOMIZATION_BYTES, overCap: 'refuse' });
    if (!read.ok) {
      if (read.reason !== 'gone') this.logger.warn(`Customization file not read (${read.reason}): ${uri.toString(true)}`);
      return undefined;
    }
    return read.binary ? undefined : decode(read.bytes);
  }
}

/** The first of each name (the user's prompt files first, then workspace folders in order, `.github` before `.claude`). */
function unique<T>(items: readonly T[], key: (item: T) => string, shadowed?: (item: T, by: T) => void): T[] {
  const seen = new Map<string, T>();
  return items.filter((item) => {
    const k = key(item);
    const first = seen.get(k);
    if (first !== undefined) {
      shadowed?.(item, first);
      return false;
    }
    seen.set(k, item);
    return true;
  });
}

/** For local files: the real path of `uri` (or its nearest existing parent) is inside the real path of `dir`. */
async function insideReal(dir: vscode.Uri, uri: vscode.Uri): Promise<boolean> {
  if (dir.scheme !== 'file' || uri.scheme !== 'file') return uri.path.startsWith(`${dir.path.replace(/\/$/, '')}/`);
  let base: string;
  try {
    base = await realpath(dir.fsPath);
  } catch {
    return false;
  }
  try {
    const real = await realpath(uri.fsPath);
    return real.startsWith(`${base}${sep}`);
  } catch {
    // Missing: the confined reader says so; the string path is inside (segments have no `..`).
    return true;
  }
}
