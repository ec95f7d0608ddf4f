import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** What one unanswered line may hold before the transport gives up on it (the SDK's stdio limit). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * One line of stdin as a JSON-RPC message. A line with a `method` (a request or a notification) is
 * checked once, where it is routed: dispatch.ts, like the SDK's router behind it, runs the SDK's
 * request and notification schemas and reports what passes neither. Not here as well, nor by the
 * SDK's schema of every message, a union whose parse copies the whole message (~0.1 ms per tool
 * call). Anything else (an answer to the server's elicitation, a malformed line) is parsed by that
 * union as the SDK's transport does, which throws for what is no message at all.
 */
export function readMessage(line: string): JSONRPCMessage {
  const value: unknown = JSON.parse(line);
  if (typeof value === 'object' && value !== null && typeof (value as { method?: unknown }).method === 'string') return value as JSONRPCMessage;
  return JSONRPCMessageSchema.parse(value);
}

/**
 * The server's stdio transport: newline-delimited JSON-RPC on stdin and stdout, as the SDK's
 * StdioServerTransport (same framing, size limit, close and back-pressure), reading each line
 * with readMessage.
 */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer: Buffer | undefined;
  private started = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer): void => {
    if ((this.buffer?.length ?? 0) + chunk.length > MAX_LINE_BYTES) {
      this.buffer = undefined;
      this.onerror?.(new Error(`A message over ${MAX_LINE_BYTES} bytes: the transport closes.`));
      void this.close();
      return;
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const buffer: Buffer | undefined = this.buffer;
      const end: number = buffer ? buffer.indexOf(10) : -1;
      if (!buffer || end === -1) return;
      const line = buffer.toString('utf8', 0, end).replace(/\r$/, '');
      this.buffer = end + 1 < buffer.length ? buffer.subarray(end + 1) : undefined;
      try {
        this.onmessage?.(readMessage(line));
      } catch (error) {
        // A line that is no message (or a handler that threw): reported, the next line read.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  start(): Promise<void> {
    if (this.started) return Promise.reject(new Error('The stdio transport is started already.'));
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.buffer = undefined;
    this.onclose?.();
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }
}
