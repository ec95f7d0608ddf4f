import * as vscode from 'vscode';
import { activityBrief, askQuery, resourceBrief } from '../../core/console/itemBrief';
import { openStratusChat } from '../../platform/openChat';
import type { Deps } from '../deps';
import type { ActivitiesTree, ActivityNode } from './activitiesTree';
import type { ResourceNode } from './nodes';

export const ASK_STRATUS_COMMAND = 'stratus.resources.askStratus';

/** What Ask @stratus did (its return value, for tests): the query sent to the chat, or why none was. */
export interface AskOutcome {
  readonly query?: string;
  readonly error?: string;
}

function isResourceNode(value: unknown): value is ResourceNode & { type: 'resource' } {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'resource' && 'item' in value && 'kind' in value;
}

function isActivityNode(value: unknown): value is ActivityNode & { type: 'activity' } {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'activity' && typeof (value as { id?: unknown }).id === 'string';
}

/**
 * "Ask @stratus" on a resource of the Cloud view or an activity of the Activities view: opens the
 * Chat view with `@stratus`, a question, and the item as a compact JSON block in the query, so it
 * reaches the model as the person's own message on every supported VS Code (1.104 to 1.139: the
 * `query` of `workbench.action.chat.open` is sent as typed; chat variables need proposed API).
 * Secret-named fields are replaced and the text goes through the one redactor.
 */
export function registerAskStratus(deps: Deps, activities: ActivitiesTree): vscode.Disposable {
  return vscode.commands.registerCommand(ASK_STRATUS_COMMAND, async (arg?: unknown): Promise<AskOutcome> => {
    const redact = (text: string): string => deps.redactor.redact(text);
    let query: string | undefined;
    if (isResourceNode(arg)) {
      query = askQuery(vscode.l10n.t('Tell me about this {0}.', arg.kind.label.singular.toLowerCase()), resourceBrief({ id: arg.kind.id, label: arg.kind.label.singular }, arg.item), redact);
    } else if (isActivityNode(arg)) {
      const activity = activities.get(arg.id);
      if (activity) {
        const question = activity.state.kind === 'failed' ? vscode.l10n.t('Why did this activity fail, and what should I do now?') : vscode.l10n.t('Tell me about this activity.');
        query = askQuery(question, activityBrief(activity), redact);
      }
    }
    if (query === undefined) {
      const message = vscode.l10n.t('Stratus: pick a resource in the Cloud view or an activity in the Activities view to ask about.');
      void vscode.window.showInformationMessage(message);
      return { error: message };
    }
    return openStratusChat(deps, query, vscode.l10n.t('Cannot ask @stratus:'));
  });
}
