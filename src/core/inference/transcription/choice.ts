import { findLanguage, LANGUAGES } from './languages';

/** What one transcription run asks for (the picker's or the chat prompt's choices). */
export interface TranscriptionChoice {
  /** Speech model id; undefined: the service's default. */
  model: string | undefined;
  /** ISO 639-1 code; undefined: automatic detection. */
  language: string | undefined;
  task: 'transcribe' | 'translate';
  /** Initial prompt: names and jargon to expect. */
  prompt: string | undefined;
  /** 0..1; undefined: the service's default. */
  temperature: number | undefined;
}

/**
 * Options given as a command argument (scripts, tests): a plain object with any of `model`,
 * `language` (`auto` for detection), `task`, `prompt`, `temperature`. Anything else (the
 * Explorer's list of selected URIs, a URI) is not options: undefined.
 */
export function parseChoiceArgument(value: unknown, defaults: TranscriptionChoice): TranscriptionChoice | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const v = value as Record<string, unknown>;
  const text = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() !== '' ? x.trim() : undefined);
  return {
    model: text(v.model) ?? defaults.model,
    language: v.language === 'auto' ? undefined : (text(v.language) ?? defaults.language),
    task: v.task === 'translate' ? 'translate' : 'transcribe',
    prompt: text(v.prompt),
    temperature: typeof v.temperature === 'number' ? v.temperature : undefined,
  };
}

/**
 * `/transcribe` options from the prompt text, read from its first words: `translate` sets the
 * task, `lang:fr` (or `language:fr`) or an English language name (`French`) sets the language,
 * `auto` asks for detection; everything from the first other word on is the initial prompt.
 */
export function choiceFromPrompt(prompt: string, defaults: TranscriptionChoice): TranscriptionChoice {
  const options: TranscriptionChoice = { ...defaults, task: 'transcribe', prompt: undefined };
  const words = prompt.split(/\s+/).filter((w) => w !== '');
  let at = 0;
  for (; at < words.length; at++) {
    const lower = (words[at] ?? '').toLowerCase();
    const code = /^(?:lang|language):([a-z]{2})$/.exec(lower)?.[1];
    const byName = LANGUAGES.find((l) => l.name.toLowerCase() === lower);
    if (lower === 'translate') options.task = 'translate';
    else if (code !== undefined) options.language = findLanguage(code)?.code ?? code;
    else if (lower === 'auto' || lower === 'lang:auto') options.language = undefined;
    else if (byName) options.language = byName.code;
    else break;
  }
  const text = words.slice(at).join(' ').trim();
  if (text !== '') options.prompt = text;
  return options;
}
