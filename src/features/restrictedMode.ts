import type { TrustAction } from '../core/workspace/trust';

/**
 * Every contributed command, as Restricted Mode sees it (one table, so a new command is a
 * decision, not an accident: `test/host/restrictedMode.test.ts` fails on a command missing here).
 *  - `safe`: the same in an untrusted workspace, with why: it runs nothing from the workspace,
 *    and what it reads or changes is what the person picked or Stratus' own state;
 *  - `gated`: asks the trust gate (deps.trust) first, which asks the person or refuses there.
 * Tools are listed apart, in src/core/agent/toolNames.ts.
 */

const ACCOUNT = 'Stratus\' own secrets, settings and sign-in state; nothing from the workspace runs';
const CLOUD = 'the person\'s cloud resources through their own console sign-in; each write confirms on its own';
const EDIT = 'edits the open editor on the person\'s own request; repository instructions are read only through the gate (skipped in Restricted Mode)';
const VIEW = 'shows or moves through Stratus\' own views and state';
const PICKED = 'reads or saves only the file the person picks; runs nothing';
const CHAT = 'opens @stratus in the Chat view, whose tools each ask through the trust gate';
const SEARCH = 'reads workspace files through the confined reader for the search index; runs nothing';

export const RESTRICTED_MODE_COMMANDS: Readonly<Record<string, { readonly safe: string } | { readonly gated: TrustAction }>> = {
  'stratus.setApiKey': { safe: ACCOUNT },
  'stratus.signIn': { safe: ACCOUNT },
  'stratus.signOut': { safe: ACCOUNT },
  'stratus.signOutOfConsole': { safe: ACCOUNT },
  'stratus.removeApiKey': { safe: ACCOUNT },
  'stratus.setGatewayHeaderSecret': { safe: ACCOUNT },
  'stratus.mcp.setUpOtherAgents': { safe: 'shows and copies configuration text for other agents (no secret in it); runs nothing, reads nothing from the workspace' },
  'stratus.showLog': { safe: VIEW },
  'stratus.pickModel': { safe: ACCOUNT },
  'stratus.refreshModels': { safe: ACCOUNT },
  'stratus.completeSelection': { safe: EDIT },
  'stratus.editWithInstruction': { safe: EDIT },
  'stratus.editAgain': { safe: EDIT },
  'stratus.edit.acceptAll': { safe: EDIT },
  'stratus.edit.rejectAll': { safe: EDIT },
  'stratus.edit.acceptHunk': { safe: EDIT },
  'stratus.edit.rejectHunk': { safe: EDIT },
  'stratus.inlineCompletion.menu': { safe: VIEW },
  'stratus.inlineCompletion.toggle': { safe: 'a setting; ghost text itself leaves other files out through the gate in Restricted Mode' },
  'stratus.inlineCompletion.snooze': { safe: VIEW },
  'stratus.inlineCompletion.pickModel': { safe: ACCOUNT },
  'stratus.nextEdit.jump': { safe: 'moves the cursor to the suggestion shown; next edit suggestions are never asked for in Restricted Mode' },
  'stratus.nextEdit.accept': { safe: EDIT },
  'stratus.nextEdit.dismiss': { safe: VIEW },
  'stratus.nextEdit.toggle': { safe: 'a setting; next edit suggestions send nothing from an untrusted workspace' },
  'stratus.retryChat': { safe: CHAT },
  'stratus.chat.showSummary': { safe: VIEW },
  'stratus.agent.continueTurn': { safe: CHAT },
  'stratus.agent.stopTurn': { safe: VIEW },
  'stratus.plan.implement': { safe: CHAT },
  'stratus.plan.save': { safe: PICKED },
  'stratus.resources.refresh': { safe: CLOUD },
  'stratus.resources.retry': { safe: CLOUD },
  'stratus.resources.filter': { safe: VIEW },
  'stratus.resources.clearFilter': { safe: VIEW },
  'stratus.resources.loadMore': { safe: CLOUD },
  'stratus.resources.copyId': { safe: VIEW },
  'stratus.resources.openDetails': { safe: CLOUD },
  'stratus.resources.create': { safe: CLOUD },
  'stratus.resources.modify': { safe: CLOUD },
  'stratus.resources.delete': { safe: CLOUD },
  'stratus.resources.powerOn': { safe: CLOUD },
  'stratus.resources.powerOff': { safe: CLOUD },
  'stratus.resources.action': { safe: CLOUD },
  'stratus.activities.refresh': { safe: CLOUD },
  'stratus.activities.openDetails': { safe: CLOUD },
  'stratus.activities.show': { safe: VIEW },
  'stratus.showConsoleEndpoints': { safe: VIEW },
  'stratus.searchWorkspace': { safe: SEARCH },
  'stratus.rebuildSearchIndex': { safe: SEARCH },
  'stratus.showUsage': { safe: VIEW },
  'stratus.showNetworkActivity': { safe: VIEW },
  'stratus.usage.exportCsv': { safe: PICKED },
  'stratus.usage.reset': { safe: VIEW },
  'stratus.transcribeFile': { safe: PICKED },
  'stratus.transcription.saveSrt': { safe: PICKED },
  'stratus.transcription.saveVtt': { safe: PICKED },
  'stratus.documents.extract': { safe: PICKED },
  'stratus.documents.extractBatch': { safe: PICKED },
  'stratus.documents.openMarkdown': { safe: VIEW },
  'stratus.documents.saveMarkdown': { safe: PICKED },
  'stratus.openWalkthrough': { safe: VIEW },
  'stratus.agent.reviewChanges': { safe: VIEW },
  'stratus.agent.undoTurn': { safe: 'puts back the files an agent turn changed, from its own checkpoint, on the person\'s request; runs nothing' },
  'stratus.generateCommitMessage': { gated: 'send' },
  // Sends the repository's changes to the model, as the commit message does: asked first in Restricted Mode.
  'stratus.reviewChanges': { gated: 'send' },
  'stratus.review.applyFix': { safe: EDIT },
  'stratus.review.dismiss': { safe: VIEW },
  'stratus.review.dismissAll': { safe: VIEW },
  'stratus.resources.askStratus': { safe: 'opens @stratus in the Chat view with a cloud resource or activity the person picked (secrets redacted); nothing from the workspace is sent' },
  'stratus.explainDiagnostic': { safe: CHAT },
  'stratus.explainSelection': { safe: CHAT },
  'stratus.addDocumentation': { safe: CHAT },
  'stratus.generateTests': { safe: CHAT },
  'stratus.runPromptFile': { safe: 'opens @stratus /prompt; prompt files of an untrusted workspace are not read (only the person\'s own folder), and the turn\'s tools each ask through the trust gate' },
  // Reads the matching workspace files and sends them to the model: asked first in Restricted Mode.
  'stratus.batch.runPromptOverFiles': { gated: 'send' },
  // Reads the failed items' files again and sends them: asked first in Restricted Mode.
  'stratus.batch.retryFailed': { gated: 'send' },
  'stratus.batch.openResults': { safe: 'reads a batch job\'s results; each file is written only once the person accepts it in the review, never one changed since it was sent' },
  'stratus.batch.openJobResults': { safe: 'opens a finished batch job\'s results through the feature that sent it: search vectors stored in the index, OCR pages shown in the document view; nothing from the workspace runs' },
  'stratus.search.buildEmbeddingsBatch': { gated: 'send' },
  'stratus.batch.cancel': { safe: 'cancels a batch job the person started, after a modal confirmation; nothing from the workspace runs' },
};
