import { ErrorActionCommands } from '../platform/errorActions';

/** Command ids, one place, so features and tests agree on them (those that error buttons run come from the error surface). */
export const Commands = {
  setApiKey: ErrorActionCommands.setApiKey,
  signIn: ErrorActionCommands.signIn,
  showUsage: ErrorActionCommands.showUsage,
  /** Former "Sign Out": kept as an alias of signOutOfConsole. */
  signOut: 'stratus.signOut',
  signOutOfConsole: 'stratus.signOutOfConsole',
  removeApiKey: 'stratus.removeApiKey',
  showLog: ErrorActionCommands.showLog,
  pickModel: ErrorActionCommands.pickModel,
  refreshModels: 'stratus.refreshModels',
  completeSelection: 'stratus.completeSelection',
  retryChat: 'stratus.retryChat',
  resourcesRefresh: 'stratus.resources.refresh',
  resourcesRetry: 'stratus.resources.retry',
  resourcesFilter: 'stratus.resources.filter',
  resourcesClearFilter: 'stratus.resources.clearFilter',
  resourcesLoadMore: 'stratus.resources.loadMore',
  resourcesCopyId: 'stratus.resources.copyId',
  resourcesOpenDetails: 'stratus.resources.openDetails',
  resourcesCreate: 'stratus.resources.create',
  resourcesModify: 'stratus.resources.modify',
  resourcesDelete: 'stratus.resources.delete',
  resourcesPowerOn: 'stratus.resources.powerOn',
  resourcesPowerOff: 'stratus.resources.powerOff',
  resourcesAction: 'stratus.resources.action',
  activitiesRefresh: 'stratus.activities.refresh',
  activitiesOpenDetails: 'stratus.activities.openDetails',
  activitiesShow: 'stratus.activities.show',
  showConsoleEndpoints: 'stratus.showConsoleEndpoints',
  /** A turn stopped at its cost cap: carry on with the caps doubled, or leave it stopped. */
  continueTurn: 'stratus.agent.continueTurn',
  stopTurn: 'stratus.agent.stopTurn',
  /** Plan mode's buttons: start an agent turn with the plan, save it as a Markdown file. */
  implementPlan: 'stratus.plan.implement',
  savePlan: 'stratus.plan.save',
  /** Bulk work through the Batch API (features/batch). */
  batchRunPromptOverFiles: 'stratus.batch.runPromptOverFiles',
  batchOpenResults: 'stratus.batch.openResults',
  batchCancel: 'stratus.batch.cancel',
  batchRetryFailed: 'stratus.batch.retryFailed',
  /** A job of a feature's own kind (search embeddings, document OCR): its results through that feature. */
  batchOpenJobResults: 'stratus.batch.openJobResults',
  searchBuildEmbeddingsBatch: 'stratus.search.buildEmbeddingsBatch',
} as const;
