import { drainOrClose, whenClosed, type Headers, type RequestContext } from '../core/http';
import type { Clock } from '../core/clock';
import type { StreamFaultSpec } from '../types';

/** Written in place of an event by the `malformed` fault: the data is not valid JSON. */
export const MALFORMED_EVENT = 'data: {"id":"chatcmpl-malformed","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":\n\n';

/**
 * Writes a server-sent event stream: `Content-Type: text/event-stream`, `Cache-Control: no-cache`,
 * then each item as `data: <item>\n\n` (items are JSON texts, the last one `[DONE]`). Honours
 * back-pressure, the per-event delay and one stream fault (see StreamFaultSpec).
 */
export async function writeSse(
  ctx: RequestContext,
  clock: Clock,
  events: Iterable<string>,
  fault: StreamFaultSpec | null,
  headers: Headers,
): Promise<void> {
  const { res, record } = ctx;
  record.streamed = true;
  if (fault) record.fault = `stream:${fault.kind}`;
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', ...headers });
  res.flushHeaders();
  let sent = 0;
  let pendingFault = fault;

  const applyFault = async (next: string | undefined): Promise<'stop' | 'continue'> => {
    const active = pendingFault;
    if (!active || sent !== active.afterChunks) return 'continue';
    pendingFault = null;
    switch (active.kind) {
      case 'stall':
        await whenClosed(res);
        return 'stop';
      case 'drop':
        record.droppedByServer = true;
        res.destroy();
        return 'stop';
      case 'malformed':
        res.write(MALFORMED_EVENT);
        return 'continue';
      case 'truncate': {
        if (next !== undefined) {
          const event = `data: ${next}\n\n`;
          res.write(event.slice(0, Math.max(1, Math.floor(event.length / 2))));
        }
        res.end();
        return 'stop';
      }
    }
  };

  for (const data of events) {
    if ((await applyFault(data)) === 'stop') return;
    if (ctx.chunkDelayMs > 0 && sent > 0) await clock.sleep(ctx.chunkDelayMs);
    if (res.destroyed || clock.isClosed) return;
    const ok = res.write(`data: ${data}\n\n`);
    sent += 1;
    record.chunksSent = sent;
    if (!ok) await drainOrClose(res);
  }
  if ((await applyFault(undefined)) === 'stop') return;
  if (!res.destroyed) res.end();
}
