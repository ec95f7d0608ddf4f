import { formatBytes } from './errors';

/** One step of a progress bar: `increment` is in percent of the whole bar (VS Code's convention). */
export interface ProgressStep {
  /** `start` before the first byte, `uploading` per shown percentage, `waiting` once all is sent. */
  phase: 'start' | 'uploading' | 'waiting';
  message: string;
  increment?: number;
}

/**
 * Turns upload byte counts into progress steps: "uploading: 40% of 12.0 MB" while the body leaves,
 * then "waiting for the transcription" once every byte is sent (uploading is 0-90 % of the bar,
 * the transcription itself the rest, which arrives at once). Repeated or decreasing counts (a
 * retried upload) report no increment; steps are emitted only when the shown percentage changes.
 */
export class UploadProgress {
  private shownPercent = -1;
  private barPercent = 0;
  private waiting = false;
  static readonly UPLOAD_SHARE = 90;

  constructor(
    private readonly totalBytes: number,
    private readonly report: (step: ProgressStep) => void,
    private readonly fileName: string,
  ) {}

  /** Before the first byte: "uploading name (size)". */
  start(): void {
    this.report({ phase: 'start', message: `uploading ${this.fileName} (${formatBytes(this.totalBytes)})…` });
  }

  /** From the transport's `onUploadProgress`: body bytes handed to the network so far. */
  sent(sentBytes: number): void {
    if (this.waiting || this.totalBytes <= 0) return;
    const fraction = Math.min(1, Math.max(0, sentBytes / this.totalBytes));
    const percent = Math.floor(fraction * 100);
    if (percent >= 100) {
      this.waitingForResult();
      return;
    }
    if (percent <= this.shownPercent) return;
    this.shownPercent = percent;
    const bar = (percent * UploadProgress.UPLOAD_SHARE) / 100;
    const increment = Math.max(0, bar - this.barPercent);
    this.barPercent = Math.max(this.barPercent, bar);
    this.report({ phase: 'uploading', message: `uploading: ${percent}% of ${formatBytes(this.totalBytes)}…`, increment });
  }

  /** Every byte is out (or the transport cannot tell): the service is transcribing. */
  waitingForResult(): void {
    if (this.waiting) return;
    this.waiting = true;
    const increment = Math.max(0, UploadProgress.UPLOAD_SHARE - this.barPercent);
    this.barPercent = UploadProgress.UPLOAD_SHARE;
    this.report({ phase: 'waiting', message: 'waiting for the transcription…', increment });
  }

  get isWaiting(): boolean {
    return this.waiting;
  }
}
