// Draws media/icon.png (128x128, the Marketplace icon): a white cloud with two "console" bars on a
// deep-blue rounded square. Pure Node (zlib writes the PNG), 4x4 supersampled for smooth edges.
// Run: node media/icon/draw-icon.js
'use strict';
const { deflateSync } = require('node:zlib');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const SIZE = 128;
const SS = 4;

/** Signed-distance-ish tests in icon units (0..128). */
function inRoundedSquare(x, y) {
  const r = 26;
  const cx = Math.min(Math.max(x, r), SIZE - r);
  const cy = Math.min(Math.max(y, r), SIZE - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}
function inCircle(x, y, cx, cy, r) {
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}
function inCloud(x, y) {
  return inCircle(x, y, 46, 72, 20) || inCircle(x, y, 68, 56, 26) || inCircle(x, y, 90, 74, 18) || (x >= 46 && x <= 90 && y >= 60 && y <= 92);
}
function inBars(x, y) {
  const bar = (x0, x1, yc) => y >= yc - 3 && y <= yc + 3 && x >= x0 && x <= x1;
  return bar(54, 82, 81) || bar(60, 76, 70);
}

/** RGBA of one sample point. */
function sample(x, y) {
  if (!inRoundedSquare(x, y)) return [0, 0, 0, 0];
  if (inCloud(x, y) && !inBars(x, y)) return [255, 255, 255, 255];
  // Vertical gradient from #2563eb to #1e3a8a.
  const t = y / SIZE;
  return [Math.round(0x25 + (0x1e - 0x25) * t), Math.round(0x63 + (0x3a - 0x63) * t), Math.round(0xeb + (0x8a - 0xeb) * t), 255];
}

const raw = Buffer.alloc((SIZE * 4 + 1) * SIZE);
for (let py = 0; py < SIZE; py++) {
  raw[py * (SIZE * 4 + 1)] = 0; // filter: none
  for (let px = 0; px < SIZE; px++) {
    const acc = [0, 0, 0, 0];
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const [r, g, b, a] = sample(px + (sx + 0.5) / SS, py + (sy + 0.5) / SS);
        acc[0] += r * a; acc[1] += g * a; acc[2] += b * a; acc[3] += a;
      }
    }
    const o = py * (SIZE * 4 + 1) + 1 + px * 4;
    const alpha = acc[3] / (SS * SS);
    raw[o] = acc[3] ? Math.round(acc[0] / acc[3]) : 0;
    raw[o + 1] = acc[3] ? Math.round(acc[1] / acc[3]) : 0;
    raw[o + 2] = acc[3] ? Math.round(acc[2] / acc[3]) : 0;
    raw[o + 3] = Math.round(alpha);
  }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const out = join(__dirname, '..', 'media', 'icon.png');
writeFileSync(out, png);
process.stdout.write(`${out}: ${png.length} bytes\n`);
