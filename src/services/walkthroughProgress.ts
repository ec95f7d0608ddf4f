import * as vscode from 'vscode';

/**
 * What a user did that completes a walkthrough step, told by the feature where it happened (the
 * Cloud view showing, say), so the step is checked whichever way it was done: from the walkthrough's
 * link, the activity bar, a command or a view restored with the window. VS Code's own completion
 * events (`onView:`, `onContext:`) miss a view or a key that was already there when it registered
 * the walkthrough, which it does lazily.
 */
export type WalkthroughMilestone = 'cloudViewShown';

export class WalkthroughProgress implements vscode.Disposable {
  private readonly reached = new Set<WalkthroughMilestone>();
  private readonly emitter = new vscode.EventEmitter<WalkthroughMilestone>();
  readonly onDidReach = this.emitter.event;

  /** Records a milestone; told once whatever the number of calls. */
  reach(milestone: WalkthroughMilestone): void {
    if (this.reached.has(milestone)) return;
    this.reached.add(milestone);
    this.emitter.fire(milestone);
  }

  has(milestone: WalkthroughMilestone): boolean {
    return this.reached.has(milestone);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
