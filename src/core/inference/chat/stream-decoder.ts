import { MalformedResponseError } from '../../errors';
import { arr, isRecord, num, str } from '../shared/json';
import type { ResponseMeta } from '../shared/meta';
import { chatResult, streamedError } from './completion';
import { ThinkSplitter } from './think';
import { ToolCallAssembler } from './tool-calls';
import type { ChatResult, ChatStreamEvent, Usage } from './types';
import { parseUsage } from './usage';

export interface DecoderContext {
  /** `POST /v1/chat/completions`, for error messages. */
  label: string;
  meta: ResponseMeta;
  redact: (text: string) => string;
}

/**
 * Turns the data of each SSE event into typed deltas, synchronously: no promise per chunk.
 * Only choice 0 is read (the contract has no `n`); unknown fields are ignored.
 */
export class ChatStreamDecoder {
  /** `[DONE]` was received; later events are ignored. */
  done = false;
  private id: string | undefined;
  private model: string | undefined;
  private created: number | undefined;
  private text = '';
  private thinking = '';
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  private eventCount = 0;
  private toolCallsEmitted = false;
  private readonly splitter: ThinkSplitter;
  private readonly tools = new ToolCallAssembler();

  constructor(
    private readonly emit: (event: ChatStreamEvent) => void,
    private readonly ctx: DecoderContext,
  ) {
    this.splitter = new ThinkSplitter((kind, text) => {
      if (kind === 'text') this.text += text;
      else this.thinking += text;
      emit({ type: kind, text });
    });
  }

  onEvent(data: string, event: string | undefined): void {
    this.eventCount++;
    if (this.done) return;
    if (data === '[DONE]') {
      this.done = true;
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      // The parser's message would quote the payload; position is enough to find it in a capture.
      throw new MalformedResponseError(
        `${this.ctx.label}: event ${this.eventCount} of the stream is not valid JSON`,
      );
    }
    if (!isRecord(chunk)) return;
    if (chunk.error !== undefined && chunk.error !== null) {
      throw streamedError(chunk.error, this.ctx.label, this.ctx.redact);
    }
    if (event === 'error') throw streamedError(chunk, this.ctx.label, this.ctx.redact);
    this.id ??= str(chunk.id);
    this.model ??= str(chunk.model);
    this.created ??= num(chunk.created);
    const choices = arr(chunk.choices);
    for (let i = 0; i < choices.length; i++) {
      const choice = choices[i];
      if (isRecord(choice) && (num(choice.index) ?? 0) === 0) this.onChoice(choice);
    }
    const usage = parseUsage(chunk.usage);
    if (usage) {
      this.usage = usage;
      this.emit({ type: 'usage', usage });
    }
  }

  /** Ends the stream: throws if it stopped before a finish reason or `[DONE]`. */
  finish(): ChatResult {
    if (!this.done && this.finishReason === undefined) {
      throw new MalformedResponseError(
        `${this.ctx.label}: the stream ended before the answer was complete (no finish_reason and no [DONE])`,
      );
    }
    this.splitter.flush();
    this.emitToolCalls();
    return chatResult(
      {
        id: this.id,
        model: this.model,
        created: this.created,
        text: this.text,
        thinking: this.thinking,
        toolCalls: this.tools.result().map((t) => t.call),
        finishReason: this.finishReason,
        usage: this.usage,
      },
      this.ctx.meta,
    );
  }

  private onChoice(choice: Record<string, unknown>): void {
    const delta = choice.delta;
    if (isRecord(delta)) {
      const reasoning = str(delta.reasoning_content) ?? str(delta.reasoning);
      if (reasoning) {
        this.thinking += reasoning;
        this.emit({ type: 'thinking', text: reasoning });
      }
      const content = str(delta.content);
      if (content) this.splitter.push(content);
      const calls = delta.tool_calls;
      if (Array.isArray(calls)) {
        for (let i = 0; i < calls.length; i++) {
          const fragment = this.tools.add(calls[i], i);
          if (fragment) this.emit({ type: 'tool_call_delta', ...fragment });
        }
      }
    }
    const finish = str(choice.finish_reason);
    if (finish) {
      this.finishReason = finish;
      this.splitter.flush();
      this.emitToolCalls();
      this.emit({ type: 'finish', reason: finish });
    }
  }

  private emitToolCalls(): void {
    if (this.toolCallsEmitted || this.tools.size === 0) return;
    this.toolCallsEmitted = true;
    for (const { index, call } of this.tools.result()) this.emit({ type: 'tool_call', index, call });
  }
}
