/**
 * Runs `work` just after activation (the next turn of the event loop), not inside activate():
 * for start-up work whose result arrives asynchronously anyway (a first read of state, a poll
 * resumed, an early request to VS Code), so activation only registers what VS Code asks for.
 * Disposing before it ran cancels it.
 */
export function afterActivation(work: () => void): { dispose(): void } {
  const timer = setTimeout(work, 0);
  return { dispose: () => clearTimeout(timer) };
}
