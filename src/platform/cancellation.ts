import type * as vscode from 'vscode';

/**
 * Turns a CancellationToken into an AbortSignal. Call `dispose()` in `finally` so the listener
 * does not outlive the request.
 */
export function toAbortSignal(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => listener.dispose() };
}
