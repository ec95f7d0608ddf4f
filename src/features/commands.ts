/** Command ids, one place, so features and tests agree on them. */
export const Commands = {
  setApiKey: 'stratus.setApiKey',
  signIn: 'stratus.signIn',
  signOut: 'stratus.signOut',
  showLog: 'stratus.showLog',
  pickModel: 'stratus.pickModel',
  completeSelection: 'stratus.completeSelection',
  retryChat: 'stratus.retryChat',
} as const;
