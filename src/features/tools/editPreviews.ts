import * as vscode from 'vscode';

/**
 * Read-only documents holding the two sides of a proposed edit, for a diff editor opened before
 * the confirmation when the text is too long to show in the confirmation itself.
 */
export class EditPreviews implements vscode.TextDocumentContentProvider {
  static readonly scheme = 'stratus-proposed-edit';
  private readonly contents = new Map<string, string>();
  private next = 0;

  provideTextDocumentContent(uri: vscode.Uri): string | undefined {
    return this.contents.get(uri.path);
  }

  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(EditPreviews.scheme, this);
  }

  private add(side: string, name: string, text: string): vscode.Uri {
    const path = `/${this.next}/${side}/${name}`;
    this.contents.set(path, text);
    // Keep the last few proposals only.
    while (this.contents.size > 20) this.contents.delete(this.contents.keys().next().value as string);
    return vscode.Uri.from({ scheme: EditPreviews.scheme, path });
  }

  /** Opens a diff of `oldText` -> `newText`; false when it could not be opened. */
  async show(relativePath: string, oldText: string, newText: string, title: string): Promise<boolean> {
    this.next++;
    const name = relativePath.split('/').pop() || 'edit';
    const left = this.add('current', name, oldText);
    const right = this.add('proposed', name, newText);
    try {
      await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: false, preserveFocus: true });
      return true;
    } catch {
      return false;
    }
  }
}
