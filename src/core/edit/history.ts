/** The instructions typed before, most recent first, without duplicates, at most `max`. */
export function rememberInstruction(history: readonly string[], instruction: string, max = 20): string[] {
  const text = instruction.trim();
  if (text === '') return [...history];
  return [text, ...history.filter((h) => h !== text)].slice(0, max);
}

/** Reads a stored history defensively (anything not a list of strings is dropped). */
export function readHistory(value: unknown, max = 20): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').slice(0, max);
}
