import { abortable } from '../abortable';
import { CancelledError, isStratusError } from '../errors';
import type { ChatMessage, ChatRequest, ChatResult, ToolDefinition } from '../inference/chat/types';
import { estimateUsage } from '../usage/metering';
import { withoutReasoning } from './turnReasoning';
import type { AgentOptions, AgentOutcome, AgentStatus, AgentTool, ToolInvocation, ToolOutcome } from './types';
import { CallValidator, type PreparedCall } from './validate';

export const AGENT_DEFAULTS = { maxRounds: 15, maxRepeatedFailures: 3, maxResultChars: 24_000 } as const;

/** The wire form of the tools the loop offers. */
export function toolDefinitions(tools: readonly AgentTool[]): ToolDefinition[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: (t.parameters ?? { type: 'object', properties: {} }) as Record<string, unknown> },
  }));
}

/**
 * Thrown by `prepareRequest` to end the turn before its next request, as `betweenRounds` and
 * `beforeRequest` do (status `stopped`, this message): a cost cap met while preparing the round
 * (a compaction summary that would pass it).
 */
export class StopTurn extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StopTurn';
  }
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[Truncated: the result had ${text.length.toLocaleString('en')} characters; only the first ${max.toLocaleString('en')} are shown. Ask for a narrower range.]`;
}

function isCancellation(error: unknown, signal: AbortSignal | undefined): boolean {
  return Boolean(signal?.aborted) || (isStratusError(error) && error.kind === 'cancelled');
}

/**
 * One agent turn: ask the model; while it asks for tools, validate and run them (a round's calls
 * concurrently) and send their results back as `tool` messages; stop when it answers, at the round
 * limit, when it repeats a failing call, when a hook stops it (a cost cap: `beforeRequest`,
 * `betweenRounds`, `StopTurn` from `prepareRequest`), on cancellation or on a request error.
 * Never throws: the outcome says how it ended and carries every message of the turn, in a shape
 * the API accepts as history (every tool call is answered).
 */
export async function runAgent(options: AgentOptions): Promise<AgentOutcome> {
  const maxRounds = Math.max(1, options.maxRounds ?? AGENT_DEFAULTS.maxRounds);
  const maxRepeated = Math.max(1, options.maxRepeatedFailures ?? AGENT_DEFAULTS.maxRepeatedFailures);
  const maxChars = Math.max(200, options.maxResultChars ?? AGENT_DEFAULTS.maxResultChars);
  const { signal, onEvent } = options;
  const emit = onEvent ?? ((): void => undefined);
  const validator = new CallValidator(options.tools);
  const definitions = options.tools.length > 0 ? toolDefinitions(options.tools) : undefined;
  const conversation: ChatMessage[] = [...options.messages];
  const added: ChatMessage[] = [];
  const references: string[] = [];
  const failures = new Map<string, number>();
  let rounds = 0;
  let toolCalls = 0;
  let partial = '';
  // Handed to tools when the caller gave no signal (created once: an AbortController is not free).
  const toolSignal = signal ?? new AbortController().signal;

  const push = (message: ChatMessage): void => {
    conversation.push(message);
    added.push(message);
  };
  const finish = (status: AgentStatus, extra: Partial<Pick<AgentOutcome, 'text' | 'finishReason' | 'message' | 'error'>> = {}): AgentOutcome => ({
    status,
    messages: withoutReasoning(added),
    text: extra.text ?? '',
    finishReason: extra.finishReason,
    rounds,
    toolCalls,
    references,
    ...(extra.message !== undefined ? { message: extra.message } : {}),
    ...(extra.error !== undefined ? { error: extra.error } : {}),
  });
  const stopped = (error: unknown): AgentOutcome => {
    if (isCancellation(error, signal)) {
      if (partial) push({ role: 'assistant', content: partial });
      return finish('cancelled', { text: partial });
    }
    return finish('error', { error, text: partial });
  };
  // A stop before the round's request: the round was never sent, so it does not count.
  const stoppedBefore = (message: string): AgentOutcome => {
    rounds -= 1;
    return finish('stopped', { message });
  };

  for (;;) {
    rounds += 1;
    partial = '';
    emit({ type: 'round', round: rounds });
    let sent: ChatMessage[] = conversation;
    let maxTokens = options.maxTokens;
    if (options.prepareRequest) {
      try {
        if (signal?.aborted) throw new CancelledError();
        const prepared = await options.prepareRequest(conversation, rounds);
        sent = prepared.messages;
        if (prepared.maxTokens !== undefined) maxTokens = prepared.maxTokens;
      } catch (error) {
        return error instanceof StopTurn && !signal?.aborted ? stoppedBefore(error.message) : stopped(error);
      }
    }
    const request: ChatRequest = {
      model: options.model,
      messages: sent,
      ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(definitions ? { tools: definitions, ...(options.toolChoice !== undefined ? { tool_choice: rounds === 1 ? options.toolChoice : 'auto' } : {}) } : {}),
    };
    if (options.beforeRequest) {
      try {
        if (signal?.aborted) throw new CancelledError();
        const decision = await options.beforeRequest(request, rounds);
        if (decision) return stoppedBefore(decision.stop);
      } catch (error) {
        return stopped(error);
      }
    }
    let result: ChatResult;
    try {
      if (signal?.aborted) throw new CancelledError();
      const round = rounds;
      result = await options.client.chatStream(request, signal ? { signal } : {}).consume((event) => {
        switch (event.type) {
          case 'text':
            partial += event.text;
            emit({ type: 'text', text: event.text });
            break;
          case 'thinking':
            emit({ type: 'thinking', text: event.text });
            break;
          case 'tool_call_delta':
            if (event.name) emit({ type: 'tool_pending', round, index: event.index, name: event.name });
            break;
          case 'usage':
            emit({ type: 'usage', usage: event.usage });
            break;
          default:
            break;
        }
      });
    } catch (error) {
      return stopped(error);
    }
    emit({ type: 'round_usage', round: rounds, usage: result.usage ?? estimateUsage(request, result), estimated: result.usage === undefined });

    if (result.toolCalls.length === 0 || !definitions) {
      // Calls nobody offered tools for are dropped: history must not carry unanswered calls.
      push(result.toolCalls.length === 0 ? result.message : { role: 'assistant', content: result.text });
      return finish('answered', { text: result.text, finishReason: result.finishReason });
    }

    const prepared = validator.prepare(result.toolCalls, rounds);
    const fromText = new Set(result.recoveredCallIds ?? []);
    const readFromText = result.toolCalls.map((c) => fromText.has(c.id));
    push({
      role: 'assistant',
      content: result.text ? result.text : null,
      tool_calls: prepared.map((p) => p.call),
      ...(options.keepReasoning && result.thinking ? { reasoning_content: result.thinking } : {}),
    });

    if (rounds >= maxRounds) {
      for (const p of prepared) push({ role: 'tool', tool_call_id: p.call.id, content: `Not run: the limit of ${maxRounds} rounds for one request was reached.` });
      return finish('round_limit', { message: `Stopped after ${maxRounds} rounds: the model kept asking for tools. Raise \`stratus.agent.maxRounds\` or ask a narrower question.` });
    }

    let outcomes: ToolOutcome[];
    try {
      outcomes = await runRound(prepared, rounds, readFromText);
    } catch (error) {
      // Cancelled while tools ran: answer every call so the history stays valid.
      for (const p of prepared) push({ role: 'tool', tool_call_id: p.call.id, content: 'Not completed: the user cancelled the request.' });
      return stopped(error);
    }

    let repeated: string | undefined;
    prepared.forEach((p, k) => {
      const outcome = outcomes[k] ?? { content: 'Error: no result.', isError: true };
      push({ role: 'tool', tool_call_id: p.call.id, content: truncate(outcome.content, maxChars) });
      for (const ref of outcome.references ?? []) if (!references.includes(ref)) references.push(ref);
      const failed = !p.ok || outcome.isError === true || outcome.declined === true;
      if (!failed) return;
      const key = `${p.call.function.name}\u0000${p.call.function.arguments.trim()}`;
      const count = (failures.get(key) ?? 0) + 1;
      failures.set(key, count);
      if (count >= maxRepeated && repeated === undefined) repeated = p.call.function.name || '(no name)';
    });
    if (repeated !== undefined) {
      return finish('repeated_failure', { message: `Stopped: the model called \`${repeated}\` ${maxRepeated} times with the same arguments and it failed each time.` });
    }
    if (options.betweenRounds) {
      try {
        if (signal?.aborted) throw new CancelledError();
        const decision = await options.betweenRounds(rounds);
        if (decision) return finish('stopped', { message: decision.stop });
      } catch (error) {
        return stopped(error);
      }
    }
  }

  async function runRound(prepared: PreparedCall[], round: number, readFromText: readonly boolean[]): Promise<ToolOutcome[]> {
    const runs = prepared.map(async (p, k): Promise<ToolOutcome> => {
      if (!p.ok) {
        const outcome: ToolOutcome = { content: p.error, isError: true };
        emit({ type: 'tool_end', call: p.call, invocation: undefined, outcome });
        return outcome;
      }
      const invocation: ToolInvocation = { callId: p.call.id, name: p.call.function.name.trim(), input: p.input, round, ...(readFromText[k] === true ? { fromText: true as const } : {}) };
      toolCalls += 1;
      emit({ type: 'tool_start', invocation });
      let outcome: ToolOutcome;
      try {
        outcome = await options.invoker.invoke(invocation, toolSignal);
      } catch (error) {
        if (isCancellation(error, signal)) throw error;
        const reason = error instanceof Error ? error.message : 'unknown error';
        outcome = { content: `Error: '${invocation.name}' failed: ${reason}`, isError: true };
      }
      emit({ type: 'tool_end', call: p.call, invocation, outcome });
      return outcome;
    });
    // A tool that ignores the signal does not hold the turn: cancellation returns at once.
    return abortable(Promise.all(runs), signal);
  }
}
