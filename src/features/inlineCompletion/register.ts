import * as vscode from 'vscode';
import type { ContextSnippet } from '../../core/inlineCompletion';
import type { UsageSnapshot } from '../../core/usage/summary';
import { DisposableStore } from '../../platform/disposables';
import type { Deps } from '../deps';
import { ContextCollector } from './context';
import type { DefinitionSearch } from './definitions';
import { InlineController, type InlineStatus } from './controller';
import { InlineCommands, pickCompletionModel, showMenu, snooze } from './menu';
import { ACCEPTED_COMMAND, INLINE_SELECTOR, StratusInlineProvider } from './provider';
import { createInlineStatusBar } from './statusBar';
import { noopTelemetrySink, type CompletionTelemetrySink, type SuggestionSize } from './telemetry';
import { readInlineSettings, setEnabled } from './settings';
import type { GhostTextShare } from '../../services/ghostTextShare';

export { InlineCommands } from './menu';
export type { GhostTextOffer } from '../../services/ghostTextShare';
export type { InlineController } from './controller';
export type { ModelRef } from '../../services/ghostTextShare';
export type { ContextCollector } from './context';
export type { CompletionTelemetrySink } from './telemetry';
export type { DefinitionSearch, IndexedPlace } from './definitions';

/** Internals for host tests (ExtensionMode.Test only). */
export interface InlineCompletionTestApi {
  readonly provider: vscode.InlineCompletionItemProvider;
  /** The status bar item as shown, after rendering the current state. */
  status(): Promise<{ status: InlineStatus | undefined; text: string; tooltip: string }>;
  /** The context snippets a completion in `document` (at `position`: with definitions) would send now (after the ignore and trust rules). */
  context(document: vscode.TextDocument, position?: vscode.Position): Promise<readonly ContextSnippet[]>;
  /** Replaces the search index definitions are looked up in (undefined: none); returns the previous one. */
  setDefinitionSearch(search: DefinitionSearch | undefined): DefinitionSearch | undefined;
  /** Notifications shown because completions stopped. */
  stopNotifications(): number;
  /** Ends a stop or a pause, as the menu's Try Again does. */
  retry(): void;
  /** Engine counters (requests, cache and type-ahead hits, superseded...). */
  stats(): Readonly<Record<string, number>>;
  /** Replaces the telemetry sink (the usage store connects here). */
  setTelemetry(sink: CompletionTelemetrySink): void;
}

export interface InlineCompletionFeature {
  readonly disposable: vscode.Disposable;
  /** Connects the acceptance statistics (the usage store); the default records nothing. */
  setTelemetry(sink: CompletionTelemetrySink): void;
  /** Connects the workspace search index (definitions of the identifiers near the cursor). */
  setDefinitionSearch(search: DefinitionSearch | undefined): void;
  readonly testApi: InlineCompletionTestApi;
  /** What next edit suggestions share with ghost text: its gates, model, back-off and context. */
  readonly shared: GhostTextShare & { readonly controller: InlineController; readonly collector: ContextCollector };
}

function isSize(value: unknown): value is SuggestionSize {
  const v = value as Partial<SuggestionSize> | undefined;
  return typeof v?.chars === 'number' && typeof v.lines === 'number';
}

/** Ghost text as you type: the provider, its status bar item and menu, and their commands. */
export function register(deps: Deps, options: { telemetry?: CompletionTelemetrySink; usage?: () => UsageSnapshot } = {}): InlineCompletionFeature {
  const store = new DisposableStore();
  let telemetry = options.telemetry ?? noopTelemetrySink;
  const sink = (): CompletionTelemetrySink => telemetry;
  const controller = store.add(new InlineController(deps, sink, options.usage));
  const collector = store.add(new ContextCollector(deps.trust));
  const provider = new StratusInlineProvider(controller, collector, sink, deps.logger);
  const statusBar = store.add(createInlineStatusBar(controller, InlineCommands.menu));
  store.add(vscode.languages.registerInlineCompletionItemProvider(INLINE_SELECTOR, provider));
  store.add(vscode.commands.registerCommand(ACCEPTED_COMMAND, (size: unknown) => {
    controller.engine.clearShown();
    if (isSize(size)) telemetry.accepted(size);
  }));
  store.add(vscode.commands.registerCommand(InlineCommands.menu, () => showMenu(controller)));
  store.add(vscode.commands.registerCommand(InlineCommands.snooze, (minutes?: unknown) => snooze(controller, minutes)));
  store.add(vscode.commands.registerCommand(InlineCommands.pickModel, () => pickCompletionModel(deps)));
  store.add(vscode.commands.registerCommand(InlineCommands.toggle, async () => {
    const document = vscode.window.activeTextEditor?.document;
    await setEnabled(!readInlineSettings(document).enabled, document);
  }));
  const setTelemetry = (next: CompletionTelemetrySink): void => {
    telemetry = next;
  };
  const setDefinitionSearch = (search: DefinitionSearch | undefined): DefinitionSearch | undefined => collector.setDefinitionSearch(search);
  return {
    disposable: store,
    setTelemetry,
    setDefinitionSearch,
    shared: { controller, collector, setOffer: (offer) => void (provider.offer = offer) },
    testApi: {
      provider,
      status: async () => {
        await statusBar.update();
        return { ...statusBar.current };
      },
      context: (document, position) => collector.collect(document, position),
      setDefinitionSearch,
      stopNotifications: () => controller.stopNotifications,
      retry: () => controller.retry(),
      stats: () => ({ ...controller.engine.stats }),
      setTelemetry,
    },
  };
}
