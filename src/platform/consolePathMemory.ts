import type * as vscode from 'vscode';
import { InMemoryPathMemory, type PathMemory } from '../core/console';

const KEY = 'stratus.console.discoveredPaths';

/**
 * Which console paths answered per base URL (contract or production), kept in global state so the
 * next window asks the right path first. Only path shapes are stored: no ids, no secrets.
 */
export function createConsolePathMemory(state: vscode.Memento): PathMemory {
  return new InMemoryPathMemory(state.get<unknown>(KEY), (snapshot) => void state.update(KEY, snapshot));
}
