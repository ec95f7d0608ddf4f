import * as vscode from 'vscode';
import type { NextEditSuggestion } from '../../core/nextEdit';
import { DisposableStore } from '../../platform/disposables';
import type { Deps } from '../deps';
import type { GhostTextShare } from '../../services/ghostTextShare';
import { NextEditController, type NextEditOutcome } from './controller';
import { NextEditDecorations, type RenderedSuggestion } from './decorations';
import { readNextEditSettings, setNextEditEnabled } from '../../platform/nextEditSettings';
import { createNextEditStatusBar } from './statusBar';

export const NextEditCommands = {
  jump: 'stratus.nextEdit.jump',
  accept: 'stratus.nextEdit.accept',
  dismiss: 'stratus.nextEdit.dismiss',
  toggle: 'stratus.nextEdit.toggle',
} as const;

/** Internal: the ghost text of a next edit was accepted (its item's command). */
const GHOST_ACCEPTED_COMMAND = 'stratus.nextEdit.ghostAccepted';

/** Internals for host tests (ExtensionMode.Test only). */
export interface NextEditTestApi {
  /** The suggestion shown as a diff, if any. */
  current(): NextEditSuggestion | undefined;
  /** What the decorations show, if anything. */
  rendered(): RenderedSuggestion | undefined;
  /** The status bar item's text, when shown. */
  statusText(): string | undefined;
  contextKeys(): Readonly<{ shown: boolean; atSuggestion: boolean }>;
  /** The ghost text offered at a place, if any. */
  ghostTextAt(document: vscode.TextDocument, position: vscode.Position): string | undefined;
  lastOutcome(): NextEditOutcome | undefined;
  counts(): Readonly<Record<string, number>>;
  /** Engine counters (requests, cache hits, superseded, dropped by reason). */
  engineStats(): unknown;
}

/** Next edit suggestions: after an edit and a pause, the next change, shown as a diff; Tab to go, Tab to apply. */
export function register(deps: Deps, inline: GhostTextShare, extensionUri: vscode.Uri): { disposable: vscode.Disposable; testApi: NextEditTestApi } {
  const store = new DisposableStore();
  const decorations = store.add(new NextEditDecorations(extensionUri));
  const controller = store.add(new NextEditController(deps, inline.controller, inline.collector, decorations));
  const statusBar = store.add(createNextEditStatusBar(controller, NextEditCommands.jump));
  inline.setOffer((document, position) => {
    const text = controller.ghostTextAt(document, position);
    return text === undefined ? undefined : { text, accepted: { title: vscode.l10n.t('Accept'), command: GHOST_ACCEPTED_COMMAND } };
  });
  store.add({ dispose: () => inline.setOffer(undefined) });
  store.add(vscode.commands.registerCommand(NextEditCommands.jump, () => controller.jump()));
  store.add(vscode.commands.registerCommand(NextEditCommands.accept, () => controller.accept()));
  store.add(vscode.commands.registerCommand(NextEditCommands.dismiss, () => controller.dismiss('dismissed')));
  store.add(vscode.commands.registerCommand(NextEditCommands.toggle, () => {
    const scope = vscode.window.activeTextEditor?.document;
    return setNextEditEnabled(!readNextEditSettings(scope).enabled, scope);
  }));
  store.add(vscode.commands.registerCommand(GHOST_ACCEPTED_COMMAND, () => controller.ghostAccepted()));
  return {
    disposable: store,
    testApi: {
      current: () => controller.current,
      rendered: () => decorations.current,
      statusText: () => statusBar.text(),
      contextKeys: () => controller.contextKeys(),
      ghostTextAt: (document, position) => controller.ghostTextAt(document, position),
      lastOutcome: () => controller.lastOutcome,
      counts: () => ({ ...controller.counts }),
      engineStats: () => structuredClone(controller.engine.stats),
    },
  };
}
