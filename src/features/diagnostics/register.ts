import * as vscode from 'vscode';
import { Commands } from '../commands';
import type { Deps } from '../deps';

export function register(deps: Deps): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.showLog, () => deps.logChannel.show(true));
}
