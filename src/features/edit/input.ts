import * as vscode from 'vscode';
import { readHistory, rememberInstruction } from '../../core/edit';

const HISTORY_KEY = 'stratus.edit.history';

export interface InstructionInputOptions {
  readonly title: string;
  /** Said under the input (the estimated cost of a large edit). */
  readonly detail?: string | undefined;
  /** Prefilled text ("Edit Again": the last instruction, to refine). */
  readonly value?: string | undefined;
}

/**
 * The instruction, typed in a quick pick whose items are the instructions used before (most
 * recent first); what is typed is the first item. Resolves to undefined when dismissed.
 */
export class InstructionInput {
  constructor(private readonly state: vscode.Memento) {}

  history(): string[] {
    return readHistory(this.state.get<unknown>(HISTORY_KEY));
  }

  async remember(instruction: string): Promise<void> {
    await this.state.update(HISTORY_KEY, rememberInstruction(this.history(), instruction));
  }

  ask(options: InstructionInputOptions): Promise<string | undefined> {
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
    pick.title = options.title;
    pick.placeholder = options.detail ?? vscode.l10n.t('Describe the change, e.g. "add error handling" (Enter to run, Esc to cancel)');
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = false;
    const history = this.history().map((label) => ({ label, description: vscode.l10n.t('recent') }));
    const refresh = (): void => {
      const typed = pick.value.trim();
      const detail = options.detail ? { detail: options.detail } : {};
      pick.items = typed === '' ? history : [{ label: typed, description: vscode.l10n.t('run this instruction'), alwaysShow: true, ...detail }, ...history.filter((h) => h.label !== typed)];
    };
    if (options.value) pick.value = options.value;
    refresh();
    return new Promise((resolve) => {
      let done = false;
      const finish = (value: string | undefined): void => {
        if (done) return;
        done = true;
        resolve(value);
        pick.dispose();
      };
      pick.onDidChangeValue(refresh);
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0]?.label ?? pick.activeItems[0]?.label ?? pick.value;
        const text = chosen.trim();
        if (text !== '') finish(text);
      });
      pick.onDidHide(() => finish(undefined));
      pick.show();
    });
  }
}
