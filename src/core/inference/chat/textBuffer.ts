/** Deltas joined into one flat string per block. */
const BLOCK = 512;

/**
 * Accumulates many small strings (streamed deltas) into one. `s += delta` keeps every delta as a
 * node of a rope until the string is first read: 200k deltas are 200k rope nodes that every
 * scavenge copies until they are promoted (about 4x the scavenge time of the raw parse loop).
 * Here deltas wait in a reused array and are joined into a flat string every BLOCK deltas, so
 * what is kept is one flat string per block.
 */
export class TextBuffer {
  private readonly parts: string[] = new Array<string>(BLOCK).fill('');
  private count = 0;
  private blocks = '';

  append(text: string): void {
    this.parts[this.count++] = text;
    if (this.count === BLOCK) {
      this.blocks += this.parts.join('');
      this.count = 0;
    }
  }

  /** Everything appended so far, in order. */
  toString(): string {
    if (this.count === 0) return this.blocks;
    return this.blocks + this.parts.slice(0, this.count).join('');
  }
}
