import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import { IndexClient, NodeIndexStorage, SearchEngine, type SearchInference, type WorkspaceIndex } from '../../core/search';
import { readSearchSettings } from '../../platform/searchSettings';
import { workspaceFileSystem } from './workspaceFs';

export interface BackendOptions {
  folder: vscode.Uri;
  storageUri: vscode.Uri | undefined;
  logger: Logger;
  inference: () => SearchInference;
  /** Where the worker bundles are (default: next to this bundle, dist/). */
  workerDir?: string;
  /** Told once when the index worker crashed (it is restarted). */
  onCrash: (message: string) => void;
}

/**
 * The index of the folder: owned by the index worker thread for a local folder when the bundle
 * ships it (dist/searchIndexWorker.js, next to dist/extension.js), so the extension host keeps
 * neither the index nor the work of building it; in this thread for remote and virtual folders
 * (read through VS Code's file system API, which only the host has).
 */
export function createWorkspaceIndex(options: BackendOptions): WorkspaceIndex {
  const { folder, storageUri, logger } = options;
  const settings = (): ReturnType<typeof readSearchSettings> => readSearchSettings(folder);
  const storageDir = storageUri && storageUri.scheme === 'file' ? storageUri.fsPath : undefined;
  const fs = workspaceFileSystem(folder);
  const dir = options.workerDir ?? __dirname;
  const indexScript = join(dir, 'searchIndexWorker.js');
  const buildScript = buildWorkerScript(dir);
  if (folder.scheme === 'file' && existsSync(indexScript)) {
    return new IndexClient({
      makeWorker: () => new Worker(indexScript),
      init: { root: folder.fsPath, ...(storageDir ? { storageDir } : {}), ...(buildScript ? { buildWorkerScript: buildScript } : {}) },
      fs,
      settings,
      logger,
      inference: options.inference,
      onCrash: options.onCrash,
    });
  }
  return new SearchEngine({
    fs,
    ...(storageDir ? { storage: new NodeIndexStorage(storageDir) } : {}),
    logger,
    settings,
    inference: options.inference,
    ...(buildScript ? { buildWorker: () => new Worker(buildScript) } : {}),
  });
}

/**
 * The bulk build's helper thread (`dist/searchWorker.js`, an esbuild entry for
 * src/core/search/build/buildWorker.ts), when the machine has a core to spare.
 */
function buildWorkerScript(dir: string): string | undefined {
  const script = join(dir, 'searchWorker.js');
  return availableParallelism() >= 2 && existsSync(script) ? script : undefined;
}
