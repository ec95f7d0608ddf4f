import * as vscode from 'vscode';
import { presentError } from '../../core/presentError';
import type { Logger } from '../../core/log';
import type { SearchService, WorkspaceSearchHit } from './service';

interface HitItem extends vscode.QuickPickItem {
  hit?: WorkspaceSearchHit;
}

const TYPING_DEBOUNCE_MS = 150;
const RERANK_DEBOUNCE_MS = 400;

const copyLinkButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('link'), tooltip: vscode.l10n.t('Copy link to this range') };

/** `path#L3-L9` relative to the workspace, and the full URI with the same fragment. */
export function linkTo(hit: WorkspaceSearchHit): string {
  return hit.uri.with({ fragment: `L${hit.startLine}-L${hit.endLine}` }).toString();
}

function item(hit: WorkspaceSearchHit, reranked: boolean): HitItem {
  return {
    label: `${reranked ? '$(sparkle) ' : ''}${hit.path}`,
    description: `${vscode.l10n.t('lines {0}–{1}', hit.startLine, hit.endLine)}${reranked && hit.rerankScore !== undefined ? ` · ${vscode.l10n.t('reranked {0}', hit.rerankScore.toFixed(2))}` : ''}`,
    detail: hit.preview,
    hit,
    buttons: [copyLinkButton],
    alwaysShow: true,
  };
}

export async function openHit(hit: WorkspaceSearchHit): Promise<void> {
  const document = await vscode.workspace.openTextDocument(hit.uri);
  const range = document.validateRange(hit.range);
  await vscode.window.showTextDocument(document, { selection: range, preview: false });
}

/**
 * "Stratus: Search Workspace": the lexical order at once as you type, then the reranked order
 * (marked) when it arrives; a note says why when it stays local. Enter opens the range.
 */
export function showSearchPick(service: SearchService, logger: Logger, initialQuery = ''): Promise<WorkspaceSearchHit | undefined> {
  const pick = vscode.window.createQuickPick<HitItem>();
  pick.title = vscode.l10n.t('Stratus: Search Workspace');
  pick.placeholder = vscode.l10n.t('Ask in your own words, e.g. "where do we refresh the auth token?"');
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  // The order is ours: VS Code must not filter or sort the items by the typed text.
  (pick as vscode.QuickPick<HitItem> & { sortByLabel?: boolean }).sortByLabel = false;
  pick.value = initialQuery;
  let generation = 0;
  /** What the picker shows came from an index still being built (asked again once it is done). */
  let shownPartial = false;
  let controller: AbortController | undefined;
  let typing: ReturnType<typeof setTimeout> | undefined;
  let rerank: ReturnType<typeof setTimeout> | undefined;

  const note = (text: string): HitItem => ({ label: `$(info) ${text}`, alwaysShow: true });

  const update = (query: string): void => {
    const mine = ++generation;
    controller?.abort();
    controller = undefined;
    if (rerank) clearTimeout(rerank);
    if (query.trim() === '') {
      pick.items = [];
      pick.busy = false;
      return;
    }
    pick.busy = true;
    // The index alone as you type (instant); a language server's definitions join in the ranked order below.
    void service.lexical(query, { symbols: false }).then(
      (hits) => {
        if (mine !== generation) return;
        showLocal(query, mine, hits.slice(0, 50));
      },
      (error: unknown) => {
        if (mine !== generation) return;
        pick.busy = false;
        pick.items = [note(presentError(error).message)];
      },
    );
  };

  const showLocal = (query: string, mine: number, local: WorkspaceSearchHit[]): void => {
    shownPartial = !service.ready;
    pick.items = local.length > 0 ? [...local.map((h) => item(h, false)), ...(service.ready ? [] : [note(vscode.l10n.t('The index is still being built: results are partial.'))])] : [note(service.ready ? vscode.l10n.t('No match in the index.') : vscode.l10n.t('The index is still being built…'))];
    if (local.length === 0) {
      pick.busy = false;
      return;
    }
    pick.busy = true;
    rerank = setTimeout(() => {
      const c = new AbortController();
      controller = c;
      service.searchWorkspace(query, { signal: c.signal }).then(
        (result) => {
          if (mine !== generation) return;
          pick.busy = false;
          const items = result.hits.map((h) => item(h, result.reranked && h.rerankScore !== undefined));
          pick.items = [...items, ...result.notes.map(note)];
        },
        (error: unknown) => {
          if (mine !== generation) return;
          pick.busy = false;
          const presented = presentError(error);
          if (!presented.cancelled) {
            logger.warn(`Search failed: ${presented.message}`);
            pick.items = [...pick.items, note(presented.message)];
          }
        },
      );
    }, RERANK_DEBOUNCE_MS);
  };

  return new Promise<WorkspaceSearchHit | undefined>((resolve) => {
    let chosen: WorkspaceSearchHit | undefined;
    let opening: Promise<void> = Promise.resolve();
    pick.onDidChangeValue((value) => {
      if (typing) clearTimeout(typing);
      typing = setTimeout(() => update(value), TYPING_DEBOUNCE_MS);
    });
    pick.onDidTriggerItemButton(({ item: it }) => {
      if (it.hit) void vscode.env.clipboard.writeText(linkTo(it.hit)).then(() => vscode.window.setStatusBarMessage(vscode.l10n.t('Stratus: link copied'), 3000));
    });
    pick.onDidAccept(() => {
      const hit = pick.selectedItems[0]?.hit ?? pick.activeItems[0]?.hit;
      if (!hit) return;
      chosen = hit;
      opening = openHit(hit).catch((error: unknown) => void vscode.window.showErrorMessage(vscode.l10n.t('Stratus: cannot open {0}: {1}', hit.path, presentError(error).message)));
      pick.hide();
    });
    // Results stream while the index is built: what is indexed so far, then everything once it is done.
    const indexChanged = service.onDidUpdateIndex(() => {
      if (shownPartial && pick.value.trim() !== '') update(pick.value);
    });
    pick.onDidHide(() => {
      indexChanged.dispose();
      controller?.abort();
      if (typing) clearTimeout(typing);
      if (rerank) clearTimeout(rerank);
      generation++;
      pick.dispose();
      // The command settles once the chosen range is open (callers and tests can rely on it).
      void opening.then(() => resolve(chosen));
    });
    pick.show();
    if (initialQuery) update(initialQuery);
  });
}
