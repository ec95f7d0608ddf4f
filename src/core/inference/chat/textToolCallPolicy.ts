/**
 * `stratus.models.textToolCalls`: model id or glob (`*`, `?`) -> false turns off the recovery of
 * tool calls printed as text for those models (on by default: it only ever recovers a call of an
 * offered tool with valid arguments). An exact id wins over globs; among globs, the longest.
 */
export type TextToolCallSetting = ReadonlyMap<string, boolean>;

/** Only `pattern: boolean` entries count; anything else in a hand-edited file is ignored. */
export function parseTextToolCallSetting(value: unknown): TextToolCallSetting {
  const setting = new Map<string, boolean>();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return setting;
  for (const [pattern, enabled] of Object.entries(value)) {
    if (typeof enabled === 'boolean' && pattern.trim() !== '') setting.set(pattern.trim(), enabled);
  }
  return setting;
}

function globMatches(pattern: string, id: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'i').test(id);
}

/** Whether calls printed as text are recovered for `model`. */
export function textToolCallsEnabled(setting: TextToolCallSetting, model: string): boolean {
  const exact = setting.get(model);
  if (exact !== undefined) return exact;
  let best: { length: number; enabled: boolean } | undefined;
  for (const [pattern, enabled] of setting) {
    if (!/[*?]/.test(pattern) || !globMatches(pattern, model)) continue;
    if (!best || pattern.length > best.length) best = { length: pattern.length, enabled };
  }
  return best?.enabled ?? true;
}
