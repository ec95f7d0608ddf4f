/**
 * Settings of the agent loop as read from VS Code's configuration, brought within the range the
 * setting's schema declares (package.json): a value typed into settings.json is not checked by
 * VS Code, so 0, -3, 1e9, 2.5 or "20" can arrive here.
 */

/** `stratus.agent.maxRounds`: the schema's default, minimum and maximum. */
export const MAX_ROUNDS = { default: 15, minimum: 1, maximum: 100 } as const;

/**
 * The round limit from the setting's value: a whole number within the schema's bounds (a number
 * beyond them is taken to the nearest bound, a fraction rounded); anything not a finite number is
 * the default.
 */
export function clampMaxRounds(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return MAX_ROUNDS.default;
  return Math.min(MAX_ROUNDS.maximum, Math.max(MAX_ROUNDS.minimum, Math.round(value)));
}
