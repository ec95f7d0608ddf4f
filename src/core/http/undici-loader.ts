/**
 * undici is ~45 ms to load, so it is imported on the first request, never at activation.
 * Only type imports of undici are allowed elsewhere in core.
 */
export type Undici = typeof import('undici');

let loading: Promise<Undici> | undefined;

export function loadUndici(): Promise<Undici> {
  loading ??= import('undici');
  return loading;
}
