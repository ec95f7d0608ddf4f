import { discoverInstructions, type InstructionSource, type InstructionsReader } from './discover';
import { buildInstructionsSection } from './sections';
import type { LoadedInstructions } from './load';

/**
 * Instructions of a turn that involves several workspace folders (multi-root): one discovery per
 * folder (each folder's AGENTS.md, copilot-instructions and applyTo files, over its own reader),
 * the user's file once, and one section capped to the model's context. With more than one folder,
 * a repository file's path is prefixed with its folder's name (`api/AGENTS.md`), so the model and
 * the "Used ..." references can tell them apart.
 */

export interface FolderInput {
  /** The workspace folder's name (the prefix in a multi-root workspace). */
  readonly name: string;
  readonly reader: InstructionsReader;
  /** Folder-relative paths of the turn's files in this folder. */
  readonly contextFiles: readonly string[];
}

export interface FolderLoadOptions {
  readonly userFile?: { readonly path: string; readonly text: string };
  readonly trusted: boolean;
}

/** Where a path of `used` comes from: the user's file (no folder) or a folder's file. */
export interface UsedSource {
  readonly sentPath: string;
  readonly folder: string | undefined;
  /** Folder-relative path, or the user file's path as configured. */
  readonly path: string;
}

export interface FolderInstructions extends LoadedInstructions {
  /** The sources of `used`, in the same order. */
  readonly sources: readonly UsedSource[];
}

export async function loadFolderInstructions(folders: readonly FolderInput[], options: FolderLoadOptions, maxModelLen: number): Promise<FolderInstructions> {
  const prefix = folders.length > 1;
  const all: InstructionSource[] = [];
  const origin = new Map<InstructionSource, UsedSource>();
  let untrustedSkipped = !options.trusted && folders.length > 0;
  if (options.userFile) {
    const { sources } = await discoverInstructions({ readFile: async () => undefined, listFiles: async () => [] }, { userFile: options.userFile, trusted: false, contextFiles: [] });
    for (const source of sources) {
      all.push(source);
      origin.set(source, { sentPath: source.path, folder: undefined, path: source.path });
    }
  }
  if (options.trusted) {
    for (const folder of folders) {
      const found = await discoverInstructions(folder.reader, { trusted: true, contextFiles: folder.contextFiles });
      untrustedSkipped ||= found.untrustedSkipped;
      for (const source of found.sources) {
        const sentPath = prefix ? `${folder.name}/${source.path}` : source.path;
        const renamed: InstructionSource = { ...source, path: sentPath, ...(prefix && source.scope !== undefined && source.kind === 'agents-nested' ? { scope: `${folder.name}/${source.scope}` } : {}) };
        all.push(renamed);
        origin.set(renamed, { sentPath, folder: folder.name, path: source.path });
      }
    }
  }
  const section = buildInstructionsSection(all, maxModelLen);
  const byPath = new Map([...origin.values()].map((o) => [o.sentPath, o]));
  const sources = section.used.map((p) => byPath.get(p)).filter((o): o is UsedSource => o !== undefined);
  return { ...section, untrustedSkipped, sources };
}
