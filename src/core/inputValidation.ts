/** Input checks for secrets typed by people: specific messages, never echoing the value. */
export function validateApiKey(value: string): string | undefined {
  const key = value.trim();
  if (key.length === 0) return 'The API key is empty.';
  if (key.toLowerCase().startsWith('bearer ')) return 'Paste only the key, without the "Bearer " prefix.';
  if (/\s/.test(key)) return 'The API key contains spaces or line breaks; paste it again without them.';
  if (key.length < 8) return 'The API key looks too short.';
  return undefined;
}

export function validatePatPart(value: string, part: 'ID' | 'secret'): string | undefined {
  const text = value.trim();
  if (text.length === 0) return `The token ${part} is empty.`;
  if (/\s/.test(text)) return `The token ${part} contains spaces or line breaks.`;
  return undefined;
}
