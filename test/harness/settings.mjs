// User settings every test workbench starts with (code-server and desktop VS Code alike).

/** Settings that keep the workbench quiet and deterministic for tests and demos. */
export const baseSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'security.workspace.trust.enabled': false,
  'chat.commandCenter.enabled': true,
  'window.commandCenter': true,
  'git.enabled': false,
};
