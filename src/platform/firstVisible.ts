import type * as vscode from 'vscode';

/** What `onFirstVisible` needs of a view (a TreeView or a WebviewView). */
export interface VisibleView {
  readonly visible: boolean;
  readonly onDidChangeVisibility: vscode.Event<{ readonly visible: boolean }>;
}

/**
 * Runs `action` once, the first time any of `views` is visible (at once if one already is), so
 * work that only a shown view needs (a console sign-in, a first load) is not done by a window
 * that never opens it.
 */
export function onFirstVisible(views: readonly VisibleView[], action: () => void): vscode.Disposable {
  let done = false;
  const subscriptions: vscode.Disposable[] = [];
  const dispose = (): void => {
    for (const s of subscriptions.splice(0)) s.dispose();
  };
  const check = (visible: boolean): void => {
    if (!visible || done) return;
    done = true;
    dispose();
    action();
  };
  for (const view of views) subscriptions.push(view.onDidChangeVisibility((e) => check(e.visible)));
  check(views.some((view) => view.visible));
  return { dispose };
}
