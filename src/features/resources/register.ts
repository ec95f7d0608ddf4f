import * as vscode from 'vscode';

export const RESOURCES_VIEW_ID = 'stratus.resources';

/**
 * The Cloud view. Until the console client is wired, the tree is empty and the view's welcome
 * content (package.json `viewsWelcome`) offers sign-in.
 */
export function register(): vscode.Disposable {
  const provider: vscode.TreeDataProvider<never> = {
    getTreeItem: (element) => element,
    getChildren: () => [],
  };
  return vscode.window.createTreeView(RESOURCES_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
}
