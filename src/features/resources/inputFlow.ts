import * as vscode from 'vscode';
import type { InputField } from '../../core/console/catalog/kindSpecs';
import { changedInput, sameInputValue } from '../../core/console/catalog/actionInputs';

/** Checks typed text against a catalog field; a specific message, or undefined when fine. */
export function validateField(field: InputField, text: string): string | undefined {
  const value = text.trim();
  if (value === '') return field.required ? vscode.l10n.t('{0} is required.', field.label) : undefined;
  switch (field.type) {
    case 'integer': {
      if (!/^-?\d+$/.test(value)) return vscode.l10n.t('{0} must be a whole number.', field.label);
      const n = Number(value);
      if (field.min !== undefined && n < field.min) return vscode.l10n.t('{0} must be at least {1}.', field.label, field.min);
      if (field.max !== undefined && n > field.max) return vscode.l10n.t('{0} must be at most {1}.', field.label, field.max);
      return undefined;
    }
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? undefined : vscode.l10n.t('{0} must be an e-mail address.', field.label);
    default:
      return undefined;
  }
}

/**
 * Asks for each field in turn (input boxes, a Yes/No pick for booleans), prefilled with `initial`.
 * Returns the values the user changed, keyed by field key (an untouched prefilled value is neither
 * checked against the rule for new values nor sent), or undefined when the user pressed Escape.
 */
export async function collectInput(title: string, fields: readonly InputField[], initial: Readonly<Record<string, string | number | boolean>>): Promise<Record<string, string | number | boolean> | undefined> {
  const values: Record<string, string | number | boolean> = {};
  const presets: Record<string, string | number | boolean> = {};
  for (const [index, field] of fields.entries()) {
    const step = `${title} (${index + 1}/${fields.length})`;
    const preset = initial[field.key] ?? field.default;
    if (preset !== undefined) presets[field.key] = preset;
    if (field.type === 'boolean') {
      const yes = vscode.l10n.t('Yes');
      const pick = await vscode.window.showQuickPick([yes, vscode.l10n.t('No')], { title: step, placeHolder: field.label, ignoreFocusOut: true });
      if (pick === undefined) return undefined;
      values[field.key] = pick === yes;
      continue;
    }
    const text = await vscode.window.showInputBox({
      title: step,
      prompt: `${field.label}${field.required ? '' : ` (${vscode.l10n.t('optional')})`}${field.min !== undefined || field.max !== undefined ? ` — ${field.min ?? ''}…${field.max ?? ''}` : ''}`,
      value: preset === undefined ? '' : String(preset),
      ...(field.placeholder ? { placeHolder: field.placeholder } : {}),
      ignoreFocusOut: true,
      // The current value as it is (1.5 GiB where new values are whole GiB) is not a change to check.
      validateInput: (v) => (preset !== undefined && sameInputValue(preset, v) ? undefined : validateField(field, v)),
    });
    if (text === undefined) return undefined;
    if (text.trim() === '') continue;
    values[field.key] = field.type === 'integer' ? Number(text.trim()) : text.trim();
  }
  return changedInput(presets, values);
}
