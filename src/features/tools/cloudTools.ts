import * as vscode from 'vscode';
import type { ConsoleClient } from '../../core/console';
import { changedInput } from '../../core/console/catalog/actionInputs';
import type { ListPage, ResourceItem } from '../../core/console/types';
import { isStratusError } from '../../core/errors';
import { escapeMarkdown, inlineCode } from '../../core/markdown';
import { presentError } from '../../core/presentError';
import { toAbortSignal } from '../../platform/cancellation';
import type { ConsoleConnection } from '../../services/consoleConnection';
import { ACTIVITY_TIMEOUT_SETTING, activityTimeoutMs } from '../../core/console/activities/followDeadline';
import { followForTool, stateText } from '../../core/console/activities/followReport';
import type { ToolProgress } from '../../services/toolsContext';
import { textResult, ToolFailure } from '../../platform/toolWorkspace';
import { stratusSetting } from '../../platform/settings';

/** Cloud tools over the console client: list, describe, and the catalog's write actions. */

interface ListInput { kind: string; name?: string; limit?: number }
interface DescribeInput { kind: string; id: string }
interface ActionInput { kind: string; action: string; id?: string; input?: Record<string, unknown> }

/** Thrown when the console is not signed in; the @stratus turn offers Sign In for it. */
export class NotSignedInFailure extends ToolFailure {}

/**
 * The console client, signed in from the stored PAT on first use (whoever asks first: these tools,
 * the Cloud view or a command). Only a missing, rejected or unconfigured PAT asks the user to sign in.
 */
async function signedInClient(connection: ConsoleConnection): Promise<ConsoleClient> {
  const state = await connection.ensureSignedIn();
  switch (state.kind) {
    case 'signedIn':
      return connection.client();
    case 'error':
      // The stored PAT is fine as far as anyone knows: signing in again would not help.
      throw new ToolFailure(`Could not reach the cloud console to sign in: ${state.message.replace(/\.?\s*$/, '.')} Nothing was done; the stored credentials were kept, and the next request tries again.`);
    case 'notConfigured':
      throw new NotSignedInFailure('The cloud console is not set up: the user must set stratus.console.baseUrl and sign in (Stratus: Sign In to Console). Nothing was done.');
    case 'rejected':
      throw new NotSignedInFailure('The console rejected the user\'s personal access token; they must sign in again (Stratus: Sign In to Console). Nothing was done.');
    default:
      throw new NotSignedInFailure('The user is not signed in to the cloud console; they must sign in first (Stratus: Sign In to Console). Nothing was done.');
  }
}

function kindOf(client: ConsoleClient, kindId: string): ReturnType<ConsoleClient['catalog']['kind']> {
  const kind = client.catalog.kinds.find((k) => k.id === kindId);
  if (!kind) throw new ToolFailure(`Unknown resource kind "${kindId}". Kinds: ${client.catalog.kinds.map((k) => k.id).join(', ')}.`);
  return kind;
}

/** Turns a console error into a sentence for the model (the typed presenter's text). */
function failure(error: unknown, what: string): never {
  if (error instanceof ToolFailure) throw error;
  if (isStratusError(error) && error.kind === 'cancelled') throw error;
  const presented = presentError(error);
  throw new ToolFailure(`${what} failed: ${presented.message}`);
}

function line(client: ConsoleClient, kindId: string, item: ResourceItem): string {
  const p = client.catalog.present(kindId, item);
  return `- ${item.name} (id ${item.id})${p.description ? `: ${p.description}` : ''}`;
}

async function findResource(client: ConsoleClient, kindId: string, id: string, signal?: AbortSignal): Promise<ResourceItem> {
  const kind = kindOf(client, kindId);
  if (kind.item) {
    try {
      return await client.get(kindId, id, signal ? { signal } : {});
    } catch (error) {
      if (isStratusError(error) && error.kind === 'not_found') throw new ToolFailure(`There is no ${kind.label.singular.toLowerCase()} with id "${id}". Use stratus_listResources to find ids.`);
      return failure(error, `Reading ${kind.label.singular.toLowerCase()} ${id}`);
    }
  }
  let offset: number | undefined = 0;
  for (let pages = 0; offset !== undefined && pages < 20; pages++) {
    const page: ListPage<ResourceItem> = await client.list(kindId, { offset, limit: 200, ...(signal ? { signal } : {}) }).catch((e: unknown) => failure(e, `Listing ${kind.label.plural.toLowerCase()}`));
    const found = page.items.find((i) => i.id === id);
    if (found) return found;
    offset = page.nextOffset;
  }
  throw new ToolFailure(`There is no ${kind.label.singular.toLowerCase()} with id "${id}". Use stratus_listResources to find ids.`);
}

export class ListResourcesTool implements vscode.LanguageModelTool<ListInput> {
  constructor(private readonly connection: ConsoleConnection) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ListInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: options.input.name ? vscode.l10n.t('Listing {0} named like "{1}"', options.input.kind, options.input.name) : vscode.l10n.t('Listing {0}', options.input.kind) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ListInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const client = await signedInClient(this.connection);
    const kind = kindOf(client, options.input.kind);
    const limit = Math.min(200, Math.max(1, options.input.limit ?? 50));
    const abort = toAbortSignal(token);
    try {
      const page = await client.list(kind.id, { limit, ...(options.input.name ? { name: options.input.name } : {}), signal: abort.signal }).catch((e: unknown) => failure(e, `Listing ${kind.label.plural.toLowerCase()}`));
      const filter = options.input.name ? ` whose name contains "${options.input.name}"` : '';
      if (page.items.length === 0) return textResult(`No ${kind.label.plural.toLowerCase()}${filter}.`);
      const items = page.items.slice(0, limit);
      const total = page.total !== undefined ? ` of ${page.total}` : '';
      const more = page.nextOffset !== undefined || (page.total ?? 0) > items.length ? '\n[More exist; filter by name to narrow.]' : '';
      return textResult(`${items.length}${total} ${kind.label.plural.toLowerCase()}${filter}:\n${items.map((i) => line(client, kind.id, i)).join('\n')}${more}`);
    } finally {
      abort.dispose();
    }
  }
}

export class DescribeResourceTool implements vscode.LanguageModelTool<DescribeInput> {
  constructor(private readonly connection: ConsoleConnection) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<DescribeInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Describing {0} {1}', options.input.kind, options.input.id) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<DescribeInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const client = await signedInClient(this.connection);
    const abort = toAbortSignal(token);
    try {
      const item = await findResource(client, options.input.kind, String(options.input.id ?? ''), abort.signal);
      return textResult(describe(client, options.input.kind, item));
    } finally {
      abort.dispose();
    }
  }
}

function describe(client: ConsoleClient, kindId: string, item: ResourceItem): string {
  const kind = kindOf(client, kindId);
  const p = client.catalog.present(kindId, item);
  const details = p.details.map((d) => `${d.label}: ${d.value}`);
  const actions = client.catalog.actionsFor(kindId, item).map((a) => a.id);
  return [`${kind.label.singular} ${item.name} (id ${item.id})`, ...details, `Actions available now: ${actions.join(', ') || 'none'}`].join('\n');
}

export class CloudActionTool implements vscode.LanguageModelTool<ActionInput> {
  constructor(
    private readonly connection: ConsoleConnection,
    private readonly progress: ToolProgress,
    /** Overall deadline of following an activity: the tree's `stratus.console.activityTimeoutMinutes`. */
    private readonly followTimeoutMs: () => number = () => activityTimeoutMs(stratusSetting<unknown>(ACTIVITY_TIMEOUT_SETTING, undefined)),
  ) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ActionInput>, token: vscode.CancellationToken): Promise<vscode.PreparedToolInvocation> {
    const { kind: kindId, action: actionId, id, input } = options.input;
    // Every write is confirmed; when the details cannot be read now, the confirmation says what was asked.
    const generic: vscode.PreparedToolInvocation = {
      invocationMessage: `${actionId} ${kindId}${id ? ` ${id}` : ''}`,
      confirmationMessages: { title: vscode.l10n.t('Change a cloud resource?'), message: new vscode.MarkdownString(`${vscode.l10n.t('Run {0} on {1} in the cloud console.', inlineCode(String(actionId)), id ? `${escapeMarkdown(String(kindId))} ${inlineCode(String(id))}` : escapeMarkdown(String(kindId)))}${inputMarkdown(input)}`) },
    };
    // Reading the target for a precise confirmation signs in from the stored PAT, like any use.
    if ((await this.connection.ensureSignedIn()).kind !== 'signedIn') return generic;
    const client = this.connection.client();
    const kind = client.catalog.kinds.find((k) => k.id === kindId);
    const action = kind?.actions.find((a) => a.id === actionId);
    if (!kind || !action) return generic;
    const verb = action.label.replace(/(\.\.\.|…)$/, '');
    let target: ResourceItem | undefined;
    if (action.target === 'item' && id) {
      const abort = toAbortSignal(token);
      target = await findResource(client, kindId, id, abort.signal).catch(() => undefined).finally(() => abort.dispose());
    }
    const singular = kind.label.singular.toLowerCase();
    const subject = target
      ? vscode.l10n.t('{0} **{1}** (id {2})', escapeMarkdown(singular), escapeMarkdown(target.name), inlineCode(target.id))
      : action.target === 'item' ? vscode.l10n.t('{0} with id {1}', escapeMarkdown(singular), inlineCode(String(id ?? '?'))) : vscode.l10n.t('a new {0}', escapeMarkdown(singular));
    const warning = action.method === 'DELETE' ? `\n\n${vscode.l10n.t('This cannot be undone.')}` : '';
    return {
      invocationMessage: `${verb}: ${target?.name ?? id ?? kind.label.singular.toLowerCase()}`,
      confirmationMessages: { title: `${verb}?`, message: new vscode.MarkdownString(`${vscode.l10n.t('{0} {1} in the cloud console.', escapeMarkdown(verb), subject)}${inputMarkdown(input)}${warning}`) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ActionInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const client = await signedInClient(this.connection);
    const { kind: kindId, action: actionId, id, input } = options.input;
    const kind = kindOf(client, kindId);
    const action = kind.actions.find((a) => a.id === actionId);
    if (!action) throw new ToolFailure(`${kind.label.plural} have no action "${actionId}". Actions: ${kind.actions.map((a) => a.id).join(', ') || 'none (read-only)'}.`);
    const abort = toAbortSignal(token);
    try {
      let target: ResourceItem | undefined;
      if (action.target === 'item') {
        if (!id) throw new ToolFailure(`"${actionId}" acts on one ${kind.label.singular.toLowerCase()}: give its id (stratus_listResources finds it).`);
        target = await findResource(client, kindId, id, abort.signal);
        if (!client.catalog.actionsFor(kindId, target).some((a) => a.id === actionId)) {
          const now = client.catalog.actionsFor(kindId, target).map((a) => a.id);
          throw new ToolFailure(`"${actionId}" is not possible on ${target.name} now (${describe(client, kindId, target).split('\n').slice(1, 3).join('; ')}). Actions available now: ${now.join(', ') || 'none'}. Nothing was done.`);
        }
      }
      const verb = action.label.replace(/(\.\.\.|…)$/, '');
      const title = `${verb}${target ? ` ${target.name}` : ''}`;
      // Only what the model asked to change is sent: a current value repeated (a VM's 1.5 GiB of
      // memory) is never checked against the stricter rule of a new value, nor sent back.
      const values = changedInput(action.fields?.length ? client.catalog.initialInput(kindId, actionId, target) : {}, input ?? {});
      let activityId: string;
      try {
        activityId = (await client.perform(kindId, actionId, { ...(target ? { target } : {}), input: values, signal: abort.signal })).activityId;
      } catch (error) {
        if (isStratusError(error) && error.kind === 'validation') throw new ToolFailure(`${title}: invalid input: ${error.message} (field "${error.param}"). Nothing was done.`);
        return failure(error, title);
      }
      this.progress.report(`${title}: activity ${activityId} waiting…`);
      const followed = await followForTool((activity, o) => client.activities.follow(activity, o), activityId, title, {
        signal: abort.signal,
        timeoutMs: this.followTimeoutMs(),
        report: (text) => this.progress.report(text),
      }).catch((error: unknown) => failure(error, `Following activity ${activityId}`));
      if (followed.status === 'ended') return textResult(followed.text);
      const activity = followed.activity;
      const resultId = activity.state.kind === 'completed' ? activity.state.result : undefined;
      const lines = [`${title}: completed. Activity ${activityId} final state: ${stateText(activity)}.`];
      if (action.target === 'collection' && resultId) lines.push(`Created id: ${resultId}`);
      const after = action.method !== 'DELETE' ? (resultId && action.target === 'collection' ? resultId : target?.id) : undefined;
      if (after) {
        const now = await findResource(client, kindId, after, abort.signal).catch(() => undefined);
        if (now) lines.push(`Now: ${describe(client, kindId, now).split('\n').slice(1).join('; ')}`);
      }
      return textResult(lines.join('\n'));
    } finally {
      abort.dispose();
    }
  }
}

/** The input of a write, for a confirmation: every key and value shown as code, never as Markdown. */
function inputMarkdown(input: Record<string, unknown> | undefined): string {
  if (!input || typeof input !== 'object' || Object.keys(input).length === 0) return '';
  const pairs = Object.entries(input).map(([k, v]) => `${inlineCode(k)} = ${inlineCode(JSON.stringify(v) ?? String(v))}`);
  return `\n\n${vscode.l10n.t('With: {0}', pairs.join(', '))}`;
}
