import * as vscode from 'vscode';
import type { TranscriptionResult } from '../../core/inference/transcription/types';
import type { TranscriptionChoice } from '../../core/inference/transcription/choice';
import type { AudioFormat } from '../../core/inference/transcription/format';

export type TranscriptionOptionsChoice = TranscriptionChoice;

/** One finished transcription, kept so its SRT/WebVTT can be generated later. */
export interface StoredResult {
  readonly id: string;
  readonly fileName: string;
  /** The audio file, when it was a local file (default folder of the save dialog). */
  readonly audioUri: vscode.Uri | undefined;
  readonly format: AudioFormat;
  readonly options: TranscriptionOptionsChoice;
  readonly result: TranscriptionResult;
  /** The untitled Markdown document showing it, once opened. */
  documentUri?: string;
}

const MAX_KEPT = 50;

/** Results by id and by document; the oldest are forgotten past 50. */
export class ResultStore {
  private readonly byId = new Map<string, StoredResult>();
  private next = 1;

  add(entry: Omit<StoredResult, 'id'>): StoredResult {
    const stored: StoredResult = { ...entry, id: `t${this.next++}` };
    this.byId.set(stored.id, stored);
    while (this.byId.size > MAX_KEPT) {
      const oldest = this.byId.keys().next().value;
      if (oldest === undefined) break;
      this.byId.delete(oldest);
    }
    return stored;
  }

  get(id: string): StoredResult | undefined {
    return this.byId.get(id);
  }

  forDocument(uri: vscode.Uri | undefined): StoredResult | undefined {
    if (!uri) return undefined;
    const key = uri.toString();
    for (const entry of this.byId.values()) if (entry.documentUri === key) return entry;
    return undefined;
  }

  /** A command argument (result id, document Uri) or the active editor's result. */
  resolve(argument: unknown): StoredResult | undefined {
    if (typeof argument === 'string') return this.get(argument);
    if (argument instanceof vscode.Uri) return this.forDocument(argument);
    return this.forDocument(vscode.window.activeTextEditor?.document.uri);
  }
}

/** What the feature shares with its chat command (passed in, so the command does not import the feature). */
export interface TranscriptionFeature {
  readonly store: ResultStore;
  /** Options the last run used: the next run starts from them. */
  lastOptions(): TranscriptionOptionsChoice;
}
