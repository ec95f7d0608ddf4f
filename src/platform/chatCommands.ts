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

/**
 * How a `/command` (`/plan`, `/prompt`, `/agent`...) or a choice remembered for the conversation (a
 * custom agent) shapes an ordinary `@stratus` agent turn, which the chat feature then runs as usual
 * (model, history, compaction, tools, errors).
 */
export interface TurnShape {
  /** Sent instead of the user's prompt (a prompt file's body with its variables resolved). */
  readonly prompt?: string;
  /** Appended to the system message (a custom agent's or plan mode's instructions). */
  readonly instructions?: string;
  /** Which tools the turn may offer (a custom agent's subset, plan mode's read-only tools). */
  readonly allowTool?: (name: string) => boolean;
  /** A model id to use instead of the one picked in the chat (a prompt file's or agent's `model`). */
  readonly model?: string;
  /** Files attached as context, already confined to the workspace by the shaper. */
  readonly attachments?: readonly vscode.Uri[];
  /** Merged into the turn's result metadata (the agent's name, remembered for the conversation). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Called once the turn has answered (not after an error, a cancellation or a cap stop), with its text: plan mode's buttons, a custom agent's handoffs. */
  readonly finish?: (answer: string, stream: vscode.ChatResponseStream) => void;
}

export interface TurnShaper {
  /** The `/command` it serves; absent: asked for every turn without a command (a remembered custom agent). */
  readonly command?: string;
  /** The shape of the turn, a result instead of a turn (nothing to run, an error shown), or undefined (no change). */
  shape(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<TurnShape | { readonly result: vscode.ChatResult } | undefined>;
}

/** Lets each feature add its `/command` without the chat feature knowing about it. */
export class ChatCommandRegistry {
  private readonly commands = new Map<string, ChatSlashCommand>();
  private readonly shapers = new Set<TurnShaper>();

  /** A `/command` (or ambient choice) that runs as an agent turn of a given shape. */
  registerShaper(shaper: TurnShaper): vscode.Disposable {
    this.shapers.add(shaper);
    return { dispose: () => { this.shapers.delete(shaper); } };
  }

  /** The shaper of this command, or, for a request without a command, the ambient ones in registration order. */
  shapersFor(command: string | undefined): TurnShaper[] {
    return [...this.shapers].filter((s) => s.command === command);
  }

  register(command: ChatSlashCommand): vscode.Disposable {
    this.commands.set(command.name, command);
    return { dispose: () => { if (this.commands.get(command.name) === command) this.commands.delete(command.name); } };
  }

  get(name: string | undefined): ChatSlashCommand | undefined {
    return name === undefined ? undefined : this.commands.get(name);
  }
}
