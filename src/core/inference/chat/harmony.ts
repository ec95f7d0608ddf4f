/**
 * Harmony-format channels (gpt-oss) that some servers leak into `content` as text:
 * `<|channel|>analysis<|message|>...<|end|><|start|>assistant<|channel|>final<|message|>...<|return|>`,
 * and tool calls as `<|channel|>commentary to=functions.name <|constrain|>json<|message|>{...}<|call|>`.
 * The analysis channel is reasoning, final and commentary without a recipient are the answer, a
 * message to a recipient is a call. Markers never reach the answer, whatever the delta splits.
 */

export interface HarmonySink {
  onText(kind: 'text' | 'thinking', text: string): void;
  /** A message to a recipient (`to=functions.name`): its name without `functions.`, its raw arguments. */
  onCall(name: string, args: string): void;
}

const TOKENS = ['<|start|>', '<|channel|>', '<|message|>', '<|end|>', '<|return|>', '<|call|>', '<|constrain|>', '<|endoftext|>'] as const;
type Token = (typeof TOKENS)[number];
/** A header longer than this without `<|message|>` was not a header: it is shown as text. */
const MAX_HEADER = 256;

type Role = 'text' | 'thinking' | 'call';

/** Length of the longest end of `s` that could be the start of a token. */
function partialTokenSuffix(s: string): number {
  const from = Math.max(0, s.length - 14);
  for (let i = s.indexOf('<', from); i >= 0 && i < s.length; i = s.indexOf('<', i + 1)) {
    const tail = s.slice(i);
    if (TOKENS.some((t) => t.startsWith(tail))) return s.length - i;
  }
  return 0;
}

function nextToken(s: string): { at: number; token: Token } | undefined {
  let best: { at: number; token: Token } | undefined;
  for (let i = s.indexOf('<|'); i >= 0; i = s.indexOf('<|', i + 1)) {
    for (const token of TOKENS) if (s.startsWith(token, i)) best = { at: i, token };
    if (best) return best;
  }
  return undefined;
}

export class HarmonySplitter {
  private pending = '';
  private role: Role = 'text';
  private header: string | undefined;
  private callName = '';
  private args = '';
  /** A harmony marker was seen: this answer is in harmony format. */
  seen = false;

  constructor(private readonly sink: HarmonySink) {}

  push(delta: string): void {
    if (this.pending === '' && this.header === undefined && this.role === 'text' && delta.indexOf('<') < 0) {
      if (delta) this.sink.onText('text', delta);
      return;
    }
    let s = this.pending + delta;
    this.pending = '';
    while (s) {
      const found = nextToken(s);
      if (!found) {
        const keep = partialTokenSuffix(s);
        this.body(s.slice(0, s.length - keep));
        this.pending = s.slice(s.length - keep);
        return;
      }
      this.body(s.slice(0, found.at));
      s = s.slice(found.at + found.token.length);
      this.seen = true;
      this.onToken(found.token);
    }
  }

  /** The stream ended (or failed): what is held is delivered, a call without `<|call|>` included. */
  flush(): void {
    const rest = this.pending;
    this.pending = '';
    this.body(rest);
    if (this.header !== undefined) {
      // A header cut short carries no answer.
      this.header = undefined;
    }
    if (this.role === 'call') this.endCall();
  }

  private body(text: string): void {
    if (!text) return;
    if (this.header !== undefined) {
      this.header += text;
      if (this.header.length > MAX_HEADER) {
        const shown = this.header.replace(/<\|[a-z]+\|>/g, ' ').trim();
        this.header = undefined;
        this.role = 'text';
        if (shown) this.sink.onText('text', shown);
      }
      return;
    }
    if (this.role === 'call') this.args += text;
    else this.sink.onText(this.role, text);
  }

  private onToken(token: Token): void {
    switch (token) {
      case '<|start|>':
        if (this.role === 'call') this.endCall();
        this.header = '';
        return;
      case '<|channel|>':
      case '<|constrain|>':
        if (this.header === undefined) {
          if (this.role === 'call' && token === '<|constrain|>') return;
          if (this.role === 'call') this.endCall();
          this.header = '';
        }
        this.header += token;
        return;
      case '<|message|>':
        if (this.header !== undefined) this.openMessage(this.header);
        this.header = undefined;
        return;
      case '<|call|>':
      case '<|end|>':
      case '<|return|>':
      case '<|endoftext|>':
        this.header = undefined;
        if (this.role === 'call') this.endCall();
        this.role = 'text';
        return;
    }
  }

  private openMessage(header: string): void {
    const channel = /<\|channel\|>\s*([A-Za-z_]+)/.exec(header)?.[1]?.toLowerCase();
    const recipient = /\bto=([^\s<]+)/.exec(header)?.[1];
    if (recipient) {
      this.role = 'call';
      this.callName = recipient.startsWith('functions.') ? recipient.slice('functions.'.length) : recipient;
      this.args = '';
      return;
    }
    this.role = channel === 'analysis' ? 'thinking' : 'text';
  }

  private endCall(): void {
    const name = this.callName;
    const args = this.args;
    this.role = 'text';
    this.callName = '';
    this.args = '';
    this.sink.onCall(name, args);
  }
}
