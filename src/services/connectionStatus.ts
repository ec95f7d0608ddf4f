import * as vscode from 'vscode';

export type ConnectionState =
  | { kind: 'unknown' }
  | { kind: 'notConfigured'; missing: 'apiKey' | 'baseUrl' }
  | { kind: 'connected'; model?: string }
  | { kind: 'error'; message: string };

/** The last known state of the inference connection, shared by the status bar and the features that talk to the service. */
export class ConnectionStatus implements vscode.Disposable {
  private current: ConnectionState = { kind: 'unknown' };
  private readonly emitter = new vscode.EventEmitter<ConnectionState>();
  readonly onDidChange = this.emitter.event;

  get state(): ConnectionState {
    return this.current;
  }

  set(state: ConnectionState): void {
    // Keep the last model used when a later success does not name one.
    if (state.kind === 'connected' && state.model === undefined && this.current.kind === 'connected' && this.current.model) state = this.current;
    if (JSON.stringify(state) === JSON.stringify(this.current)) return;
    this.current = state;
    this.emitter.fire(state);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
