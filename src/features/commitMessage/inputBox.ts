import type { GitInputBox } from '../../platform/git';

/**
 * Writes the streamed message into the input box of the repository whose changes were read, for
 * as long as the box holds what Stratus last put there: once the person types their own message
 * (or another tool writes one) while the answer streams, nothing of theirs is overwritten, not
 * even by the restore after a failure or a cancel.
 */
export class MessageWriter {
  private last: string;
  private takenOver = false;
  private readonly original: string;

  constructor(private readonly box: GitInputBox) {
    this.original = box.value;
    this.last = box.value;
  }

  /** Whether the box still holds what Stratus last wrote (or what it held at the start). */
  get owned(): boolean {
    if (!this.takenOver && this.box.value !== this.last) this.takenOver = true;
    return !this.takenOver;
  }

  /** Writes `text`; false when the box is no longer Stratus' to write. */
  write(text: string): boolean {
    if (!this.owned) return false;
    this.box.value = text;
    this.last = this.box.value;
    return true;
  }

  /** Puts back what the box held at the start, unless someone wrote there since. */
  restore(): void {
    if (this.owned) this.box.value = this.original;
  }

  get value(): string {
    return this.box.value;
  }
}
