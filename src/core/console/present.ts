import type { FieldSpec, ResourceKindSpec, ResourcePresentation } from './catalog-types';
import { at, nonBlankText } from '../json';
import type { ResourceItem } from './types';

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

function formatBytes(bytes: number): string {
  if (bytes >= GIB) return `${trim(bytes / GIB)} GiB`;
  if (bytes >= MIB) return `${trim(bytes / MIB)} MiB`;
  return `${bytes} B`;
}

function trim(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** Formats one field of a raw resource; undefined when the field is absent or unusable. */
export function formatField(raw: unknown, field: FieldSpec): string | undefined {
  const value = at(raw, field.path);
  switch (field.format ?? 'text') {
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 'yes' : 'no') : nonBlankText(value);
    case 'bytes':
      return typeof value === 'number' && value >= 0 ? formatBytes(value) : nonBlankText(value);
    case 'vcpu':
      return typeof value === 'number' ? `${value} vCPU` : nonBlankText(value);
    case 'count': {
      if (typeof value !== 'number') return nonBlankText(value);
      const [one, many] = field.unit ?? ['', ''];
      const unit = value === 1 ? one : many;
      return unit ? `${value} ${unit}` : String(value);
    }
    case 'text':
      return nonBlankText(value);
  }
}

/** Display name: the first non-empty name field, else the id. */
export function displayName(kind: Pick<ResourceKindSpec, 'presentation'>, raw: unknown, id: string): string {
  for (const path of kind.presentation.nameFields) {
    const value = nonBlankText(at(raw, path));
    if (value) return value;
  }
  return id;
}

/** Label, description, tooltip and icon of a resource, from the kind's presentation data. */
export function present(kind: ResourceKindSpec, item: ResourceItem): ResourcePresentation {
  const spec = kind.presentation;
  const description = spec.description
    .map((field) => formatField(item.raw, field))
    .filter((v): v is string => v !== undefined)
    .join(' · ');
  const details: Array<{ label: string; value: string }> = [];
  for (const field of spec.tooltip) {
    const value = formatField(item.raw, field);
    if (value !== undefined) details.push({ label: field.label ?? field.path, value });
  }
  let icon = kind.icon;
  if (spec.iconRule) {
    const state = nonBlankText(at(item.raw, spec.iconRule.path));
    icon = (state !== undefined ? spec.iconRule.values[state] : undefined) ?? kind.icon;
  }
  const tooltip = [item.name, ...details.map((d) => `${d.label}: ${d.value}`)].join('\n');
  return { label: item.name, description, tooltip, details, icon };
}
