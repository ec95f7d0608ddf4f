import type * as vscode from 'vscode';
import type { ContextSnippet, PauseBudget, TierBackoff } from '../core/inlineCompletion';

/**
 * What next edit suggestions share with ghost text (issue 40): the inline completion feature
 * builds these once (its controller and context collector) and the composition root hands them to
 * the next edit feature, so neither feature imports the other.
 */

/** A completion model as ghost text and next edits use it. */
export interface ModelRef {
  id: string;
  maxModelLen: number | undefined;
}

/**
 * Ghost text another feature offers for this very place (next edit suggestions: an insertion at the
 * cursor): when it answers, the engine is not asked, so one suggestion shows, never two.
 */
export type GhostTextOffer = (document: vscode.TextDocument, position: vscode.Position) => { text: string; accepted: vscode.Command } | undefined;

/** Ghost text's gates, model, back-off and request budget, as next edits follow them. */
export interface GhostTextGates {
  readonly engine: { readonly backoff: TierBackoff };
  /** One request per pause between ghost text and next edits (ghost text first at the cursor). */
  readonly budget: PauseBudget;
  /** Why completions are off for `document` now, or undefined when they may run. */
  blocked(document: vscode.TextDocument): Promise<'off' | 'snoozed' | 'paused' | undefined>;
  /** The model for `wanted` (empty: ghost text's own), or undefined when none can be used. */
  resolveModelFor(wanted: string, signal: AbortSignal): Promise<ModelRef | undefined>;
  reportStopped(error: unknown): void;
  refresh(): void;
}

/** Ghost text's context collector: what may be read and sent, under the ignore and trust rules. */
export interface GhostTextContext {
  mayReadContext(): boolean;
  collect(document: vscode.TextDocument, position?: vscode.Position, signal?: AbortSignal): Promise<ContextSnippet[]>;
  mayContribute(uri: vscode.Uri): Promise<boolean>;
}

/** The part of the inline completion feature next edits build on. */
export interface GhostTextShare {
  readonly controller: GhostTextGates;
  readonly collector: GhostTextContext;
  setOffer(offer: GhostTextOffer | undefined): void;
}
