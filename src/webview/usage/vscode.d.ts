// The API VS Code injects into a webview's global scope.
interface VsCodeWebviewApi<Message, State> {
  postMessage(message: Message): void;
  getState(): State | undefined;
  setState(state: State): void;
}

declare function acquireVsCodeApi<Message = unknown, State = unknown>(): VsCodeWebviewApi<Message, State>;
