import * as vscode from 'vscode';
import { presentError } from '../../core/presentError';
import { toAbortSignal } from '../../platform/cancellation';
import type { ChatSlashCommand } from '../../platform/chatCommands';
import type { SearchService } from './service';

/** Markdown-safe inline text. */
function inline(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`);
}

/** `@stratus /search <question>`: the ranked places as anchors with a one-line summary each. */
export function searchChatCommand(service: SearchService): ChatSlashCommand {
  return {
    name: 'search',
    async handle(request, _context, stream, token) {
      const query = request.prompt.trim();
      if (query === '') {
        stream.markdown(vscode.l10n.t('Ask a question about this workspace after `/search`, for example `/search where do we refresh the auth token?`'));
        return {};
      }
      const abort = toAbortSignal(token);
      try {
        stream.progress(service.ready ? vscode.l10n.t('Searching the workspace…') : vscode.l10n.t('Searching (the index is still being built)…'));
        const result = await service.searchWorkspace(query, { signal: abort.signal });
        if (result.hits.length === 0) {
          stream.markdown(vscode.l10n.t('No place in the workspace matches **{0}**.', inline(query)));
          for (const n of result.notes) stream.markdown(`\n\n> ${inline(n)}`);
          return { metadata: { command: 'search', hits: 0 } };
        }
        stream.markdown(`${result.reranked ? vscode.l10n.t('Most relevant first (reranked) for **{0}**:', inline(query)) : vscode.l10n.t('Best local matches for **{0}**:', inline(query))}\n\n`);
        result.hits.forEach((hit, i) => {
          stream.markdown(`${i + 1}. `);
          stream.anchor(new vscode.Location(hit.uri, hit.range), `${hit.path}:${hit.startLine}-${hit.endLine}`);
          stream.markdown(hit.preview ? ` — \`${hit.preview.replace(/`/g, "'")}\`\n` : '\n');
          stream.reference(new vscode.Location(hit.uri, hit.range));
        });
        for (const n of result.notes) stream.markdown(`\n> ${inline(n)}\n`);
        return { metadata: { command: 'search', hits: result.hits.length, reranked: result.reranked } };
      } catch (error) {
        const presented = presentError(error);
        if (presented.cancelled) return {};
        return { errorDetails: { message: presented.message } };
      } finally {
        abort.dispose();
      }
    },
  };
}
