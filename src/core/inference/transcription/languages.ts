/**
 * Languages a speech model can be told to expect, as ISO 639-1 codes (the contract's `language`
 * field), with English names. Leaving the language out means automatic detection.
 */
export interface Language {
  readonly code: string;
  readonly name: string;
}

const TABLE = `af Afrikaans|am Amharic|ar Arabic|as Assamese|az Azerbaijani|ba Bashkir|be Belarusian|bg Bulgarian
|bn Bengali|bo Tibetan|br Breton|bs Bosnian|ca Catalan|cs Czech|cy Welsh|da Danish|de German|el Greek|en English
|es Spanish|et Estonian|eu Basque|fa Persian|fi Finnish|fo Faroese|fr French|gl Galician|gu Gujarati|ha Hausa
|he Hebrew|hi Hindi|hr Croatian|ht Haitian Creole|hu Hungarian|hy Armenian|id Indonesian|is Icelandic|it Italian
|ja Japanese|jv Javanese|ka Georgian|kk Kazakh|km Khmer|kn Kannada|ko Korean|la Latin|lb Luxembourgish|ln Lingala
|lo Lao|lt Lithuanian|lv Latvian|mg Malagasy|mi Maori|mk Macedonian|ml Malayalam|mn Mongolian|mr Marathi|ms Malay
|mt Maltese|my Burmese|ne Nepali|nl Dutch|nn Norwegian Nynorsk|no Norwegian|oc Occitan|pa Punjabi|pl Polish
|ps Pashto|pt Portuguese|ro Romanian|ru Russian|sa Sanskrit|sd Sindhi|si Sinhala|sk Slovak|sl Slovenian|sn Shona
|so Somali|sq Albanian|sr Serbian|su Sundanese|sv Swedish|sw Swahili|ta Tamil|te Telugu|tg Tajik|th Thai
|tk Turkmen|tl Tagalog|tr Turkish|tt Tatar|uk Ukrainian|ur Urdu|uz Uzbek|vi Vietnamese|yi Yiddish|yo Yoruba
|zh Chinese`;

/** Sorted by code. */
export const LANGUAGES: readonly Language[] = TABLE.replace(/\n/g, '')
  .split('|')
  .map((entry) => {
    const space = entry.indexOf(' ');
    return { code: entry.slice(0, space), name: entry.slice(space + 1) };
  });

const BY_CODE = new Map(LANGUAGES.map((l) => [l.code, l]));

/** The language with this code (case-insensitive), if it is in the list. */
export function findLanguage(code: string | undefined): Language | undefined {
  return code === undefined ? undefined : BY_CODE.get(code.trim().toLowerCase());
}

/** "French (fr)", or the code itself for one not in the list. */
export function languageLabel(code: string | undefined): string {
  if (code === undefined || code === '') return 'automatic';
  const language = findLanguage(code);
  return language ? `${language.name} (${language.code})` : code;
}
