import type { ChatStream, ChatStreamOptions } from '../inference/chat/chat';
import type { ChatMessage, ChatRequest, ToolCall, ToolChoice, Usage } from '../inference/chat/types';

/** A tool the loop can offer a model: its name, what it is for, and the JSON schema of its input. */
export interface AgentTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the input object; absent: the tool takes no input (`{}`). */
  readonly parameters?: Readonly<Record<string, unknown>> | undefined;
}

/** One call the model made whose input passed validation. */
export interface ToolInvocation {
  readonly callId: string;
  readonly name: string;
  /** The parsed arguments, valid against the tool's schema. */
  readonly input: Readonly<Record<string, unknown>>;
  /** 1-based round of the turn. */
  readonly round: number;
  /** Read from the model's text, not sent as a tool call: never auto-approved, its confirmation says so. */
  readonly fromText?: true;
}

/** What a tool gave back. `content` goes to the model as the `tool` message. */
export interface ToolOutcome {
  readonly content: string;
  /** The tool failed; `content` explains why, in words the model can act on. */
  readonly isError?: boolean;
  /** The user refused to run it (a side-effect tool's confirmation). Nothing happened. */
  readonly declined?: boolean;
  /** Files (paths or URIs, as the tool reports them) the tool read, for the answer's references. */
  readonly references?: readonly string[];
}

/**
 * Runs tools for the loop. In VS Code this is `vscode.lm.invokeTool` with the chat request's
 * `toolInvocationToken` (confirmations render in the Chat view); in unit tests a plain object.
 * `signal` fires when the user cancels: the invoker should stop at once (the loop does not wait).
 */
export interface ToolInvoker {
  invoke(invocation: ToolInvocation, signal: AbortSignal): Promise<ToolOutcome>;
}

/** The one method of the inference client the loop needs. */
export interface AgentModelClient {
  chatStream(request: ChatRequest, options?: ChatStreamOptions): ChatStream;
}

/** What happens during a turn, in order, for the Chat view (or a test) to render. */
export type AgentEvent =
  | { type: 'round'; round: number }
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  /** The model started writing a call (its name is known, its arguments are still streaming). */
  | { type: 'tool_pending'; round: number; index: number; name: string }
  /** A validated call is about to run. */
  | { type: 'tool_start'; invocation: ToolInvocation }
  /** A call ended (or was refused by validation before running: `invocation` is then undefined). */
  | { type: 'tool_end'; call: ToolCall; invocation: ToolInvocation | undefined; outcome: ToolOutcome }
  | { type: 'usage'; usage: Usage }
  /** A round's response is complete: its usage as reported, or estimated from the text when the server sent none (the turn's cost cap counts every round). */
  | { type: 'round_usage'; round: number; usage: Usage; estimated: boolean };

export type AgentStatus =
  /** The model answered in text. */
  | 'answered'
  /** The round limit was reached while the model still asked for tools. */
  | 'round_limit'
  /** The model repeated the same failing call too often. */
  | 'repeated_failure'
  /** The user cancelled; `messages` holds what was done, consistent for the next turn. */
  | 'cancelled'
  /** A request failed (network, API...); `error` is the typed error, `messages` what was done. */
  | 'error'
  /** A hook stopped the turn before a request or after a round's tools (a cost cap); `message` says why. */
  | 'stopped';

export interface AgentOutcome {
  readonly status: AgentStatus;
  /**
   * The turn's new messages (assistant with tool_calls, tool results, final answer), in order;
   * without the reasoning kept between its rounds (it stays within this turn: withoutReasoning).
   */
  readonly messages: ChatMessage[];
  /** The final answer text (empty unless `answered`, or the partial text when cancelled). */
  readonly text: string;
  readonly finishReason: string | undefined;
  /** Model requests made. */
  readonly rounds: number;
  /** Tools run (validated calls), across rounds. */
  readonly toolCalls: number;
  /** For `round_limit`, `repeated_failure` and `stopped`: a sentence for the user. */
  readonly message?: string;
  readonly error?: unknown;
  /** Every file reference the tools reported, deduplicated, in order. */
  readonly references: string[];
}

/** What `prepareRequest` gives back for one round. */
export interface PreparedRound {
  readonly messages: ChatMessage[];
  /** Replaces `maxTokens` for this round. */
  readonly maxTokens?: number;
}

export interface AgentOptions {
  readonly client: AgentModelClient;
  readonly model: string;
  /** The conversation so far, ending with the user's request. */
  readonly messages: readonly ChatMessage[];
  /** Tools to offer; empty: a plain one-round answer. */
  readonly tools: readonly AgentTool[];
  readonly invoker: ToolInvoker;
  /** Applies to the first round; later rounds use `auto` (a forced call would loop forever). */
  readonly toolChoice?: ToolChoice;
  /** Most model requests in one turn. Default 15. */
  readonly maxRounds?: number;
  /** The same failing call (name and arguments) this many times stops the turn. Default 3. */
  readonly maxRepeatedFailures?: number;
  /** Longest tool result sent to the model, in characters; longer ones are cut with a note. Default 24 000. */
  readonly maxResultChars?: number;
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: AgentEvent) => void;
  /**
   * Called before each model request with the whole conversation so far (the caller's messages and
   * every round's); returns the messages to send instead (compacted to fit the model's context,
   * the system message refreshed) and, if it had to lower it to make room, the round's max_tokens.
   * The loop keeps the whole conversation. A throw ends the turn as a request error; a `StopTurn`
   * (loop.ts) ends it as `stopped` with its message.
   */
  readonly prepareRequest?: (conversation: readonly ChatMessage[], round: number) => Promise<PreparedRound>;
  /**
   * Send the assistant's reasoning back with its tool calls in the next round (`reasoning_content`).
   * Default false, the contract's behaviour (reasoning stripped from history); a per-family rule
   * (`keepsReasoningBetweenRounds` in core/inference/models/reasoningEffort.ts).
   */
  readonly keepReasoning?: boolean;
  /**
   * Called after a round's tools have all answered and before the next model request (never while
   * a tool runs): `{ stop }` ends the turn with status `stopped` and that message, the history
   * valid (every call answered). A throw ends the turn as a request error (or cancellation).
   */
  readonly betweenRounds?: (round: number) => Promise<BetweenRounds> | BetweenRounds;
  /**
   * Called with each request just before it is sent, the first included (after `prepareRequest`):
   * `{ stop }` ends the turn there with status `stopped` (a cost cap the request's estimate would
   * pass), the round not counted. A throw ends the turn as a request error (or cancellation).
   */
  readonly beforeRequest?: (request: ChatRequest, round: number) => Promise<BetweenRounds> | BetweenRounds;
}

/** What `betweenRounds` decides: carry on (undefined) or stop with a sentence for the user. */
export type BetweenRounds = { readonly stop: string } | undefined;
