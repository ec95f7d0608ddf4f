import { deflateSync } from 'node:zlib';

/**
 * A minimal PNG encoder (8-bit grey, RGB or RGBA; filter 0; zlib from Node): page images decoded
 * from a PDF are sent to the OCR model as PNG. Pure JavaScript, no native module.
 */

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

export type Channels = 1 | 3 | 4;

/** Pixels as rows of `channels` bytes per pixel, top to bottom. */
export interface Pixels {
  readonly width: number;
  readonly height: number;
  readonly channels: Channels;
  readonly data: Uint8Array;
}

const COLOR_TYPE: Record<Channels, number> = { 1: 0, 3: 2, 4: 6 };

/** Encodes pixels as a PNG; `text` adds tEXt chunks (keyword to value, Latin-1). */
export function encodePng(pixels: Pixels, text: Readonly<Record<string, string>> = {}): Uint8Array {
  const { width, height, channels, data } = pixels;
  const stride = width * channels;
  if (data.length < stride * height) throw new RangeError(`PNG: ${data.length} bytes for ${width}x${height}x${channels}`);
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(data.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = COLOR_TYPE[channels];
  const parts = [Buffer.from(SIGNATURE), chunk('IHDR', header)];
  for (const [key, value] of Object.entries(text)) parts.push(chunk('tEXt', Buffer.from(`${key}\0${value}`, 'latin1')));
  parts.push(chunk('IDAT', deflateSync(raw, { level: 6 })), chunk('IEND', new Uint8Array(0)));
  return Buffer.concat(parts);
}
