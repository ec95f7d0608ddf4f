/** The agent loop (pure core): model <-> tools, independent of VS Code. */
export { AGENT_DEFAULTS, runAgent, StopTurn, toolDefinitions } from './loop';
export { withoutReasoning } from './turnReasoning';
export { CallValidator, type PreparedCall } from './validate';
export type * from './types';
