// Issue 24: text from the console or the model shown in Markdown (tool confirmations, tooltips)
// cannot add links, images, HTML, or close the code it is shown in.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { resolveCatalog, ResourceCatalog } from '../../src/core/console/index';
import type { Activity, ResourceItem } from '../../src/core/console/types';
import { silentLogger } from '../../src/core/log';
import { ActivitiesTree } from '../../src/features/resources/activitiesTree';
import { ResourcesTree } from '../../src/features/resources/resourcesTree';
import { CloudActionTool } from '../../src/features/tools/cloudTools';
import { ToolProgress } from '../../src/services/toolsContext';
import type { ConsoleConnection, ConsoleState } from '../../src/services/consoleConnection';

const EVIL = 'x` [click](https://evil.example) <img src=x>';

/** CommonMark code spans: a run of n backticks (not escaped), content, and a run of exactly n. */
const CODE_SPAN = /(?<![`\\])(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;

/** Asserts `markdown` shows EVIL only as inert text: in code spans, or escaped outside them. */
function assertInert(markdown: string, occurrences: number): void {
  const spans = [...markdown.matchAll(CODE_SPAN)].map((m) => (m[2] ?? '').replace(/^ (.*) $/, '$1'));
  const outside = markdown.replace(CODE_SPAN, ' ');
  assert.doesNotMatch(outside, /(^|[^\\])[[<`]/, `live Markdown or HTML outside code in:\n${markdown}`);
  const shown = spans.filter((s) => s.includes(EVIL)).length + outside.split('x\\` \\[click\\]\\(https://evil\\.example\\) \\<img src=x\\>').length - 1;
  assert.equal(shown, occurrences, `the value is shown ${occurrences} time(s), as code or escaped text, in:\n${markdown}`);
}

function fakeConnection(state: ConsoleState, client?: unknown): ConsoleConnection {
  return { state, ensureSignedIn: () => Promise.resolve(state), client: () => client } as unknown as ConsoleConnection;
}

const prepare = <T>(input: T): vscode.LanguageModelToolInvocationPrepareOptions<T> => ({ input });
const token = (): vscode.CancellationToken => new vscode.CancellationTokenSource().token;
const markdownOf = (value: string | vscode.MarkdownString | undefined): string => (typeof value === 'string' ? value : value?.value ?? '');

describe('cloud Markdown: server and model text is shown inert', () => {
  const catalog = new ResourceCatalog(resolveCatalog());
  const evilVm: ResourceItem = { id: EVIL, name: EVIL, raw: { id: EVIL, name: EVIL, powerState: 'running', cpu: 2 } };

  it('the confirmation of a write that cannot read its target (not signed in) shows the model\'s values as code', async () => {
    const tool = new CloudActionTool(fakeConnection({ kind: 'signedOut' }), new ToolProgress());
    const prepared = await tool.prepareInvocation(prepare({ kind: EVIL, action: EVIL, id: EVIL, input: { [EVIL]: EVIL } }), token());
    const message = markdownOf(prepared.confirmationMessages?.message);
    assertInert(message, 5);
    assert.equal((prepared.confirmationMessages?.message as vscode.MarkdownString).isTrusted, undefined);
  });

  it('the confirmation of a write on a resource shows its name, id and the input as text or code', async () => {
    const client = { catalog, get: () => Promise.resolve(evilVm) };
    const tool = new CloudActionTool(fakeConnection({ kind: 'signedIn', session: {} as never }, client), new ToolProgress());
    const prepared = await tool.prepareInvocation(prepare({ kind: 'virtualMachines', action: 'modify', id: EVIL, input: { name: EVIL } }), token());
    const message = markdownOf(prepared.confirmationMessages?.message);
    assert.match(message, /^Modify virtual machine \*\*/);
    assertInert(message, 3);
  });

  it('an activity\'s tooltip shows its description, state, type, id and concerned items as text or code', () => {
    const tree = new ActivitiesTree(fakeConnection({ kind: 'signedOut' }), silentLogger);
    try {
      const activity: Activity = {
        id: EVIL, description: EVIL, type: EVIL, tenantId: undefined, creationDate: EVIL,
        concernedItems: [{ type: EVIL, id: EVIL }], state: { kind: 'failed', reason: EVIL }, raw: {},
      };
      tree.update(activity, true);
      const node = tree.nodeOf(EVIL);
      assert.ok(node);
      const tooltip = tree.getTreeItem(node).tooltip;
      assert.ok(tooltip instanceof vscode.MarkdownString);
      assertInert(tooltip.value, 7);
    } finally {
      tree.dispose();
    }
  });

  it('a resource\'s tooltip shows its name and id as text or code', () => {
    const tree = new ResourcesTree(fakeConnection({ kind: 'signedIn', session: {} as never }, { catalog }), silentLogger);
    try {
      const kind = catalog.kind('virtualMachines');
      const tooltip = tree.getTreeItem(tree.resourceNode(kind, evilVm)).tooltip;
      assert.ok(tooltip instanceof vscode.MarkdownString);
      assertInert(tooltip.value, 3);
    } finally {
      tree.dispose();
    }
  });
});
