import type * as vscode from 'vscode';

/** One `/command` of the `@stratus` participant, provided by the feature that owns it. */
export interface ChatSlashCommand {
  /** The name after the slash, as declared in package.json's `chatParticipants[].commands`. */
  readonly name: string;
  handle(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult>;
}

/** Lets each feature add its `/command` without the chat feature knowing about it. */
export class ChatCommandRegistry {
  private readonly commands = new Map<string, ChatSlashCommand>();

  register(command: ChatSlashCommand): vscode.Disposable {
    this.commands.set(command.name, command);
    return { dispose: () => { if (this.commands.get(command.name) === command) this.commands.delete(command.name); } };
  }

  get(name: string | undefined): ChatSlashCommand | undefined {
    return name === undefined ? undefined : this.commands.get(name);
  }
}
