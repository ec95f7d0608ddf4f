// A display language for code-server without downloading a language pack: VS Code resolves the
// locale through `<user-data>/languagepacks.json`; an entry whose core translations are empty
// keeps the workbench's own strings in English but makes `--locale` take effect, so extensions
// see `vscode.env.language` and get their package.nls.<locale>.json and l10n bundles.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * @param {{ root: string, userData: string }} dirs code-server's throwaway directories
 * @param {string} locale e.g. `fr`
 */
export function writeLanguagePack(dirs, locale) {
  const translations = join(dirs.root, `language-pack-${locale}`, 'main.i18n.json');
  mkdirSync(dirname(translations), { recursive: true });
  writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  const id = `stratus-test.language-pack-${locale}`;
  writeFileSync(join(dirs.userData, 'languagepacks.json'), JSON.stringify({
    [locale]: { hash: `${id}-0`, extensions: [{ extensionIdentifier: { id }, version: '0.0.0' }], translations: { vscode: translations }, label: locale },
  }, null, 2));
}
