/**
 * A file's bytes as text. UTF-8 by default (a UTF-8 byte-order mark dropped by the decoder); a
 * UTF-16 byte-order mark (FF FE little endian, FE FF big endian) decodes as UTF-16, as ripgrep
 * does, so such a file is text even though its ASCII characters carry NUL bytes.
 */

/** A text decoder (TextDecoder fits). */
export interface Decoder {
  decode(bytes: Uint8Array): string;
}

/** The UTF-16 byte order a byte-order mark announces, or undefined. */
export function utf16ByteOrder(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

let utf16le: Decoder | undefined;
let utf16be: Decoder | undefined;

/** The text of a file's bytes: UTF-16 when a byte-order mark says so, else through `utf8`. */
export function decodeFileText(bytes: Uint8Array, utf8: Decoder): string {
  const order = utf16ByteOrder(bytes);
  if (order === 'utf-16le') return (utf16le ??= new TextDecoder('utf-16le')).decode(bytes.subarray(2));
  if (order === 'utf-16be') return (utf16be ??= new TextDecoder('utf-16be')).decode(bytes.subarray(2));
  return utf8.decode(bytes);
}
