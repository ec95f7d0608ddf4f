import { createHash } from 'node:crypto';

/** A UUIDv4-shaped identifier derived from a seed, so seeded data is identical run after run. */
export function uuidFrom(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A short deterministic hex digest of a string. */
export function shortHash(seed: string, length = 24): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, length);
}

/** 32-bit FNV-1a hash with a seed; cheap and deterministic (embeddings, token ids). */
export function fnv1a(text: string, seed = 0): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
