import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { createConsolePathMemory } from '../../../src/platform/consolePathMemory';

/** A Memento over a Map, as VS Code's global state behaves for one window. */
function memento(initial: Record<string, unknown> = {}): vscode.Memento & { values: Map<string, unknown> } {
  const values = new Map(Object.entries(initial));
  return {
    values,
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: (key: string, value: unknown) => {
      values.set(key, value);
      return Promise.resolve();
    },
  } as vscode.Memento & { values: Map<string, unknown> };
}

describe('console path memory in global state', () => {
  it('persists what answered per base URL, and a new window reads it back', () => {
    const state = memento();
    createConsolePathMemory(state).set('https://console.example/', 'virtualMachines', 'production');
    const next = createConsolePathMemory(state);
    assert.equal(next.get('https://console.example', 'virtualMachines'), 'production');
    assert.equal(next.get('https://other.example', 'virtualMachines'), undefined);
  });

  it('ignores a stored value of the wrong shape instead of failing', () => {
    const state = memento({ 'stratus.console.discoveredPaths': { 'https://c': { virtualMachines: 'somewhere' }, bad: 42 } });
    const memory = createConsolePathMemory(state);
    assert.equal(memory.get('https://c', 'virtualMachines'), undefined);
  });
});
