import { InterruptedError, MalformedResponseError, type AnyStratusError } from '../../errors';
import { isRecord, num, str, type JsonRecord } from '../../json';
import type { ResponseMeta } from '../shared/meta';
import { chatResult, streamedError } from './completion';
import type { SseDecoder } from './sse';
import { ContentDecoder } from './contentDecoder';
import type { OfferedTools } from './offeredTools';
import { recoveredCallId, type RecoveredCall } from './textToolCalls';
import { TextBuffer } from './textBuffer';
import { ToolCallStreamAssembler } from './toolCalls';
import type { ChatResult, ChatStreamEvent, Usage } from './types';
import { parseUsage } from './usage';

export interface DecoderContext {
  /** `POST /v1/chat/completions`, for error messages. */
  label: string;
  meta: ResponseMeta;
  redact: (text: string) => string;
  /** The tools offered in this request when tool calls printed as text are recovered; undefined: not. */
  textCallTools?: OfferedTools;
  /** Told each time a call printed as text is recovered. */
  log?: (line: string) => void;
  /** The model writes the harmony format (gpt-oss): its markers are read anywhere in the answer. */
  harmony?: boolean;
}


/**
 * Turns the data of each SSE event into typed deltas, synchronously: no promise per chunk.
 * Only choice 0 is read (the contract has no `n`); unknown fields are ignored.
 */
export class ChatStreamDecoder implements SseDecoder<ChatResult> {
  /** `[DONE]` was received: the reader stops and releases the body; later events are ignored. */
  done = false;
  private id: string | undefined;
  private model: string | undefined;
  private created: number | undefined;
  private readonly text = new TextBuffer();
  private readonly thinking = new TextBuffer();
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  private eventCount = 0;
  private toolCallsEmitted = false;
  /** The body ended; the parser is dispatching an unterminated last event, if any. */
  private atEnd = false;
  /**
   * Something the caller shows (answer text or a tool-call fragment) was emitted: a failure from
   * now on interrupts an answer rather than preventing one. Thinking alone does not count.
   */
  delivered = false;
  private readonly splitter: ContentDecoder;
  private recovered = 0;
  private readonly tools = new ToolCallStreamAssembler();

  constructor(
    private readonly emit: (event: ChatStreamEvent) => void,
    private readonly ctx: DecoderContext,
  ) {
    this.splitter = new ContentDecoder(
      {
        onText: (text) => {
          this.text.append(text);
          this.delivered = true;
          emit({ type: 'text', text });
        },
        onThinking: (text) => {
          this.thinking.append(text);
          emit({ type: 'thinking', text });
        },
        onCall: (call) => this.onRecoveredCall(call),
      },
      { tools: ctx.textCallTools, harmony: ctx.harmony === true },
    );
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
      this.notJson(data);
      return;
    }
    if (!isRecord(chunk)) return;
    const error = chunk.error;
    if (error !== undefined && error !== null) {
      this.releaseHeld();
      throw streamedError(error, this.ctx.label, this.ctx.redact);
    }
    if (event === 'error') {
      this.releaseHeld();
      throw streamedError(chunk, this.ctx.label, this.ctx.redact);
    }
    if (this.id === undefined) this.id = str(chunk.id);
    if (this.model === undefined) this.model = str(chunk.model);
    if (this.created === undefined) this.created = num(chunk.created);
    const choices = chunk.choices;
    if (Array.isArray(choices)) {
      for (let i = 0; i < choices.length; i++) {
        const choice: unknown = choices[i];
        if (isRecord(choice) && (num(choice.index) ?? 0) === 0) this.onChoice(choice);
      }
    }
    const usage = chunk.usage;
    if (usage !== undefined && usage !== null) {
      const parsed = parseUsage(usage);
      if (parsed) {
        this.usage = parsed;
        this.emit({ type: 'usage', usage: parsed });
      }
    }
  }

  /** The answer is whole: `[DONE]` or a finish reason arrived (usage may still follow). */
  get complete(): boolean {
    return this.done || this.finishReason !== undefined;
  }

  ending(): void {
    this.atEnd = true;
  }

  /**
   * A read failure after part of the answer arrived interrupts it (reset or stall); before, the
   * transport's error stands (nothing to keep). After the finish reason the answer is whole and
   * only the trailing usage or `[DONE]` is lost, so it is returned. A cancel stays a cancel.
   */
  readFailed(error: AnyStratusError): Error | undefined {
    this.releaseHeld();
    if (error.kind === 'cancelled') return error;
    if (this.complete) return undefined;
    if (!this.delivered) return error;
    switch (error.kind) {
      // A transport may call a broken POST "outcome unknown"; once text streamed, it was answered.
      case 'network':
      case 'outcome_unknown':
        return new InterruptedError(
          `${this.ctx.label}: the connection was cut after part of the answer arrived${error.code ? ` (${error.code})` : ''}`,
          'reset',
          { cause: error },
        );
      case 'stream_stalled':
      case 'timeout':
        return new InterruptedError(
          `${this.ctx.label}: the stream went silent after part of the answer arrived`,
          'stalled',
          { cause: error },
        );
      default:
        return error;
    }
  }

  /** Ends the stream: throws if it stopped before a finish reason or `[DONE]`. */
  finish(): ChatResult {
    if (!this.complete) throw this.endedEarly('');
    this.splitter.flush();
    this.emitToolCalls();
    const calls = this.tools.result();
    return chatResult(
      {
        id: this.id,
        model: this.model,
        created: this.created,
        // Only spaces around a recovered call: the call is the whole answer.
        text: this.recovered > 0 && this.text.toString().trim() === '' ? '' : this.text.toString(),
        thinking: this.thinking.toString(),
        ...(this.splitter.thinkingOpen ? { thinkingOpen: true } : {}),
        toolCalls: calls.map((t) => t.call),
        ...(this.recovered > 0 ? { recoveredCallIds: calls.filter((t) => t.fromText).map((t) => t.call.id) } : {}),
        finishReason: this.finishReason,
        usage: this.usage,
      },
      this.ctx.meta,
    );
  }

  /**
   * An event whose data is not JSON (the cold path). `[DONE]` with stray spaces is `[DONE]`; an
   * empty event carries nothing. After the finish reason the answer is whole, and anything a
   * server or proxy adds (`data: ping`) is ignored rather than throwing the answer away. Before
   * it, the event may have held part of the answer, so the stream is malformed (or, at the end of
   * the body, cut in the middle of an event).
   */
  private notJson(data: string): void {
    const trimmed = data.trim();
    if (trimmed === '[DONE]') {
      this.done = true;
      return;
    }
    if (trimmed === '' || this.complete) return;
    // Half an event at the end of the body: the body was cut, not garbled.
    this.releaseHeld();
    if (this.atEnd) throw this.endedEarly('in the middle of an event');
    // The parser's message would quote the payload; position is enough to find it in a capture.
    throw new MalformedResponseError(`${this.ctx.label}: event ${this.eventCount} of the stream is not valid JSON`);
  }

  /** The body ended before the answer did: interrupted if some of it arrived, else unreadable. */
  private endedEarly(where: string): InterruptedError | MalformedResponseError {
    this.releaseHeld();
    const what = `${this.ctx.label}: the stream ended${where ? ` ${where}` : ''} before the answer was complete (no finish_reason and no [DONE])`;
    return this.delivered ? new InterruptedError(what, 'ended') : new MalformedResponseError(what);
  }

  /**
   * Delivers text held back as a possible tag (`a <`) before the stream ends in an error or a
   * cancel: it arrived, and a fragment is not a tag once nothing can follow it.
   */
  private releaseHeld(): void {
    this.splitter.release();
  }

  /** A call printed as text: assembled after the server's own calls, as if it had sent it. */
  private onRecoveredCall(call: RecoveredCall): void {
    const event = this.tools.addRecovered(recoveredCallId(this.id ?? '', this.tools.size), call.name, call.arguments);
    this.recovered++;
    this.delivered = true;
    this.ctx.log?.(`${this.ctx.label}: recovered a call of '${call.name}' that ${this.model ?? 'the model'} printed as text (${call.format} format)`);
    this.emit(event);
  }

  private onChoice(choice: JsonRecord): void {
    const delta = choice.delta;
    if (isRecord(delta)) {
      const reasoning = str(delta.reasoning_content) ?? str(delta.reasoning);
      if (reasoning) {
        this.thinking.append(reasoning);
        this.emit({ type: 'thinking', text: reasoning });
      }
      const content = delta.content;
      if (typeof content === 'string' && content !== '') this.splitter.push(content);
      const calls = delta.tool_calls;
      if (Array.isArray(calls)) {
        for (let i = 0; i < calls.length; i++) {
          const event = this.tools.add(calls[i], i);
          if (event) {
            this.delivered = true;
            this.emit(event);
          }
        }
      }
    }
    const finish = str(choice.finish_reason);
    if (finish) {
      this.splitter.flush();
      // The server saw an answer; with calls recovered from it, the model asked for tools.
      this.finishReason = finish === 'stop' && this.recovered > 0 ? 'tool_calls' : finish;
      this.emitToolCalls();
      this.emit({ type: 'finish', reason: this.finishReason });
    }
  }

  private emitToolCalls(): void {
    if (this.toolCallsEmitted || this.tools.size === 0) return;
    this.toolCallsEmitted = true;
    for (const { index, call } of this.tools.result()) this.emit({ type: 'tool_call', index, call });
  }
}
