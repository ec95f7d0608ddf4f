import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { stratus } from './extension';

/** VS Code turns a localised command title into `{ value, original }` (original: the English one). */
type Localized = string | { value: string; original: string };
const shown = (text: Localized | undefined): string | undefined => (typeof text === 'object' ? text.value : text);

interface Manifest {
  contributes: {
    commands: { command: string; title: Localized; category?: Localized }[];
    configuration: { title: string; properties: Record<string, { markdownDescription?: string }> }[];
    views: Record<string, { id: string; name: string }[]>;
  };
}

/**
 * What a user sees in the manifest (package.nls*.json) and in the extension's own messages
 * (vscode.l10n.t with l10n/bundle.l10n.*.json), in the window's display language. The French run
 * (`STRATUS_HOST_LOCALE=fr`, code-server started with `--locale fr`) must see French; the ordinary
 * run sees the English strings, so the test checks both ends of the localisation.
 */
const expected = {
  en: {
    setApiKey: 'Set Inference API Key',
    inferenceSection: 'Inference',
    networkSection: 'Network',
    activitiesView: 'Activities',
    baseUrlDoc: /^Root address of the \*\*inference API\*\*/,
    usageTooltip: /Click to open the Usage view\.$/,
    usageName: 'Stratus Usage',
  },
  fr: {
    setApiKey: "Définir la clé d'API d'inférence",
    inferenceSection: 'Inférence',
    networkSection: 'Réseau',
    activitiesView: 'Activités',
    baseUrlDoc: /^Adresse racine de l'\*\*API d'inférence\*\*/,
    usageTooltip: /Cliquez pour ouvrir la vue Consommation\.$/,
    usageName: 'Consommation Stratus',
  },
} as const;

describe('l10n: the display language reaches the manifest and the messages', () => {
  const wanted = process.env.STRATUS_HOST_LOCALE ?? '';
  const language = (): 'en' | 'fr' => (vscode.env.language.toLowerCase().startsWith('fr') ? 'fr' : 'en');

  it('runs in the language the harness asked for', () => {
    // Without this a French run that silently came up in English would pass as the English one.
    if (wanted) assert.equal(language(), wanted.toLowerCase().startsWith('fr') ? 'fr' : 'en', `vscode.env.language is ${vscode.env.language}`);
    else assert.equal(language(), 'en', 'the ordinary host run is expected in English');
  });

  it('shows the contributed commands, settings sections, views and setting descriptions in that language', async () => {
    const { extension } = await stratus();
    const strings = expected[language()];
    const manifest = extension.packageJSON as Manifest;
    const titles = new Map(manifest.contributes.commands.map((c) => [c.command, shown(c.title) ?? '']));
    assert.equal(titles.get('stratus.setApiKey'), strings.setApiKey);
    for (const [command, title] of titles) assert.doesNotMatch(title, /^%.*%$/, `${command}: placeholder not replaced`);
    const sections = manifest.contributes.configuration.map((s) => s.title);
    assert.ok(sections.includes(strings.inferenceSection), sections.join(', '));
    assert.ok(sections.includes(strings.networkSection), sections.join(', '));
    const baseUrl = manifest.contributes.configuration.map((s) => s.properties['stratus.inference.baseUrl']).find((p) => p !== undefined);
    assert.match(baseUrl?.markdownDescription ?? '', strings.baseUrlDoc);
    const views = Object.values(manifest.contributes.views).flat();
    assert.equal(views.find((v) => v.id === 'stratus.activities')?.name, strings.activitiesView);
  });

  it('shows its own messages (vscode.l10n.t) in that language: the usage status bar', async () => {
    const { api } = await stratus();
    assert.ok(api.usage, 'the usage internals are exported in test mode');
    const strings = expected[language()];
    assert.match(api.usage.statusBar.tooltip, strings.usageTooltip);
    if (language() === 'fr') {
      assert.equal(vscode.l10n.bundle?.['Stratus Usage'], strings.usageName, 'the French bundle is loaded for the extension');
    } else {
      assert.equal(vscode.l10n.bundle, undefined, 'no bundle is loaded in English');
    }
  });
});
