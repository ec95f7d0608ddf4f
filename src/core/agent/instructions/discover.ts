import { parseFrontMatter } from './frontMatter';
import { applyToMatcher } from './applyTo';

/**
 * Which instruction files apply to a turn, in the order they are sent (see sections.ts for the
 * precedence they are given). Pure over a small reader: the feature backs it with the confined
 * workspace reader (size cap, links that leave the workspace refused) and a file watcher that
 * invalidates what it caches, so files are re-read on change, never per request.
 */

/** Larger instruction files are read up to this size (and then capped to the model's context anyway). */
export const MAX_INSTRUCTIONS_BYTES = 256 * 1024;

/** Workspace-relative paths with `/` separators; '' is the root folder. */
export interface InstructionsReader {
  /** The file's text, or undefined if it does not exist or cannot be read. */
  readFile(relativePath: string): Promise<string | undefined>;
  /** File names directly in the folder; [] if it does not exist. */
  listFiles(relativeDir: string): Promise<readonly string[]>;
}

export type InstructionKind = 'user' | 'agents-root' | 'agents-nested' | 'copilot' | 'applyTo';

export interface InstructionSource {
  readonly kind: InstructionKind;
  /** Workspace-relative path, or the user file's path as configured. */
  readonly path: string;
  readonly text: string;
  /** For a nested AGENTS.md: its folder (`pkg/a`); for an applyTo file: the globs. */
  readonly scope?: string;
  /** The turn's files this source was picked for (nested AGENTS.md and applyTo files). */
  readonly forFiles?: readonly string[];
}

export interface DiscoverOptions {
  /** `stratus.agent.instructionsFile`, already read by the caller (it lives outside the workspace). */
  readonly userFile?: { readonly path: string; readonly text: string };
  /** Workspace trust: when false, no repository file is read. */
  readonly trusted: boolean;
  /** Workspace-relative paths of the files in the turn's context (attachments, files the tools touched). */
  readonly contextFiles: readonly string[];
}

export interface Discovered {
  readonly sources: readonly InstructionSource[];
  /** Repository instructions were not read because the workspace is not trusted: say so once. */
  readonly untrustedSkipped: boolean;
}

export const AGENTS_FILE = 'AGENTS.md';
export const COPILOT_FILE = '.github/copilot-instructions.md';
export const INSTRUCTIONS_DIR = '.github/instructions';
/** Bounds the reads one turn can cause. */
export const MAX_CONTEXT_FILES = 64;
export const MAX_FOLDER_DEPTH = 32;
export const MAX_APPLY_TO_FILES = 32;

function normalise(path: string): string | undefined {
  const p = path.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/+/g, '/').replace(/^\/|\/$/g, '');
  if (p === '' || p.split('/').some((s) => s === '..' || s === '.')) return undefined;
  return p;
}

function parentFolders(file: string): string[] {
  const parts = file.split('/').slice(0, -1).slice(0, MAX_FOLDER_DEPTH);
  const out: string[] = [];
  for (let i = parts.length; i >= 1; i--) out.push(parts.slice(0, i).join('/'));
  return out; // nearest first, the root ('') excluded
}

function present(text: string | undefined): text is string {
  return text !== undefined && text.trim() !== '';
}

async function nestedAgents(reader: InstructionsReader, files: readonly string[]): Promise<InstructionSource[]> {
  const seen = new Map<string, Promise<string | undefined>>();
  const read = (dir: string): Promise<string | undefined> => {
    let pending = seen.get(dir);
    if (!pending) {
      pending = reader.readFile(`${dir}/${AGENTS_FILE}`);
      seen.set(dir, pending);
    }
    return pending;
  };
  const picked = new Map<string, { text: string; files: string[] }>();
  for (const file of files) {
    for (const dir of parentFolders(file)) {
      const text = await read(dir);
      if (!present(text)) continue;
      const entry = picked.get(dir) ?? { text, files: [] };
      entry.files.push(file);
      picked.set(dir, entry);
      break; // the nearest one only
    }
  }
  return [...picked.entries()]
    .sort(([a], [b]) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0))
    .map(([dir, { text, files: forFiles }]) => ({ kind: 'agents-nested', path: `${dir}/${AGENTS_FILE}`, text, scope: dir, forFiles }));
}

async function applyToFiles(reader: InstructionsReader, files: readonly string[]): Promise<InstructionSource[]> {
  if (files.length === 0) return [];
  const names = [...(await reader.listFiles(INSTRUCTIONS_DIR))]
    .filter((n) => n.endsWith('.instructions.md') && !/[\\/]/.test(n))
    .sort()
    .slice(0, MAX_APPLY_TO_FILES);
  const out: InstructionSource[] = [];
  for (const name of names) {
    const path = `${INSTRUCTIONS_DIR}/${name}`;
    const raw = await reader.readFile(path);
    if (raw === undefined) continue;
    const { attributes, body } = parseFrontMatter(raw);
    const applyTo = attributes.get('applyTo');
    if (applyTo === undefined || !present(body)) continue;
    const matches = applyToMatcher(applyTo);
    const forFiles = files.filter(matches);
    if (forFiles.length === 0) continue;
    out.push({ kind: 'applyTo', path, text: body.trim(), scope: typeof applyTo === 'string' ? applyTo : applyTo.join(', '), forFiles });
  }
  return out;
}

/**
 * The sources, in sending order: the user's file; the root AGENTS.md; the nearest AGENTS.md above
 * each context file (outermost first, so a nearer one comes later); `.github/copilot-instructions.md`;
 * the `.github/instructions/*.instructions.md` whose `applyTo` matches a context file (by name).
 */
export async function discoverInstructions(reader: InstructionsReader, options: DiscoverOptions): Promise<Discovered> {
  const sources: InstructionSource[] = [];
  if (options.userFile && present(options.userFile.text)) sources.push({ kind: 'user', path: options.userFile.path, text: options.userFile.text.trim() });
  if (!options.trusted) return { sources, untrustedSkipped: true };
  const files = [...new Set(options.contextFiles.map(normalise).filter((p): p is string => p !== undefined))].slice(0, MAX_CONTEXT_FILES);
  const root = await reader.readFile(AGENTS_FILE);
  if (present(root)) sources.push({ kind: 'agents-root', path: AGENTS_FILE, text: root.trim() });
  sources.push(...(await nestedAgents(reader, files)));
  const copilot = await reader.readFile(COPILOT_FILE);
  if (present(copilot)) sources.push({ kind: 'copilot', path: COPILOT_FILE, text: copilot.trim() });
  sources.push(...(await applyToFiles(reader, files)));
  return { sources, untrustedSkipped: false };
}
