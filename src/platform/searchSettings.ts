import * as vscode from 'vscode';
import { DEFAULT_SEARCH_SETTINGS, enabledGlobs, type SearchSettings } from '../core/search';
import { stratusConfiguration } from './settings';
import type { BoundedConfiguration } from './settingsPolicy';
import { CREDENTIAL_FILE_GLOBS } from '../core/workspace/credentialFiles';

function num(config: BoundedConfiguration, key: string, fallback: number, min: number, max: number): number {
  const v = config.get<number>(key, fallback);
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
}

/** A list of globs from a setting: its non-empty strings (anything else in it is ignored). */
function globList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string' && g.trim() !== '').slice(0, 1000) : [];
}

/** `stratus.search.*` plus `files.exclude` and `search.exclude` of the folder; side-effect free. */
export function readSearchSettings(folder?: vscode.Uri): SearchSettings {
  const config = stratusConfiguration('stratus.search', folder);
  const files = vscode.workspace.getConfiguration('files', folder).get<Record<string, unknown>>('exclude', {});
  const search = vscode.workspace.getConfiguration('search', folder).get<Record<string, unknown>>('exclude', {});
  const version = config.get<string>('rerank.apiVersion', 'v1');
  const d = DEFAULT_SEARCH_SETTINGS;
  return {
    maxFileSizeBytes: num(config, 'maxFileSizeKB', d.maxFileSizeBytes / 1024, 1, 100_000) * 1024,
    excludeGlobs: [...new Set([...enabledGlobs(files), ...enabledGlobs(search), '**/.git', ...CREDENTIAL_FILE_GLOBS])],
    useGitignore: config.get<boolean>('useGitignore', true),
    demoteGlobs: globList(config.get<unknown>('demoteGlobs', [])),
    chunk: {},
    candidates: Math.round(num(config, 'candidates', d.candidates, 1, 1000)),
    results: Math.round(num(config, 'results', d.results, 1, 200)),
    rerank: {
      enabled: config.get<boolean>('rerank.enabled', true),
      model: (config.get<string>('rerank.model', '') ?? '').trim(),
      version: version === 'v2' ? 'v2' : 'v1',
      timeoutMs: num(config, 'rerank.timeoutSeconds', d.rerank.timeoutMs / 1000, 1, 300) * 1000,
      batchSize: Math.round(num(config, 'rerank.batchSize', d.rerank.batchSize, 1, 1000)),
      concurrency: Math.round(num(config, 'rerank.concurrency', d.rerank.concurrency, 1, 8)),
    },
    embeddingModel: (config.get<string>('embeddings.model', '') ?? '').trim(),
    debounceMs: d.debounceMs,
  };
}

/** Whether a configuration change concerns search. */
export function affectsSearch(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration('stratus.search') || event.affectsConfiguration('files.exclude') || event.affectsConfiguration('search.exclude');
}

/** Whether the index is built when the workspace opens (`stratus.search.backgroundIndexing`), not on first search. */
export function backgroundIndexing(folder: vscode.Uri): boolean {
  return stratusConfiguration('stratus.search', folder).get<boolean>('backgroundIndexing', false) === true;
}
