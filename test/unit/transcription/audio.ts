/** Audio fixtures synthesised in the test (never downloaded). */

/** A 16-bit mono PCM WAV of a sine tone; `extraChunk` inserts a LIST chunk before `data`. */
export function toneWav(seconds: number, options: { sampleRate?: number; frequency?: number; extraChunk?: boolean } = {}): Buffer {
  const sampleRate = options.sampleRate ?? 8000;
  const frequency = options.frequency ?? 440;
  const samples = Math.round(seconds * sampleRate);
  const dataSize = samples * 2;
  const list = options.extraChunk ? Buffer.concat([Buffer.from('LIST', 'latin1'), u32(14), Buffer.from('INFOISFT\x02\x00\x00\x00x\x00', 'latin1')]) : Buffer.alloc(0);
  const header = Buffer.alloc(36);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + list.length + 8 + dataSize, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  const data = Buffer.alloc(8 + dataSize);
  data.write('data', 0, 'latin1');
  data.writeUInt32LE(dataSize, 4);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 12000), 8 + i * 2);
  return Buffer.concat([header, list, data]);
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

/** A FLAC stream header (fLaC + STREAMINFO) announcing `totalSamples` at `sampleRate`; no frames. */
export function flacHeader(sampleRate: number, totalSamples: number): Buffer {
  const info = Buffer.alloc(34);
  info.writeUInt16BE(4096, 0);
  info.writeUInt16BE(4096, 2);
  // bytes 10..17: sample rate (20 bits), channels-1 (3), bits-1 (5), total samples (36)
  const bits = (BigInt(sampleRate) << 44n) | (1n << 41n) | (15n << 36n) | BigInt(totalSamples);
  info.writeBigUInt64BE(bits, 10);
  return Buffer.concat([Buffer.from('fLaC', 'latin1'), Buffer.from([0x80, 0, 0, 34]), info]);
}

export const SIGNATURES = {
  mp3Id3: Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.alloc(64, 1)]),
  mp3Frame: Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(64)]),
  m4a: Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A \x00\x00\x02\x00', 'latin1'), Buffer.alloc(64)]),
  ogg: Buffer.concat([Buffer.from('OggS\x00\x02', 'latin1'), Buffer.alloc(64)]),
  flac: flacHeader(44100, 44100 * 3),
  webm: Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]), Buffer.from('B\x82\x84webm', 'latin1'), Buffer.alloc(48)]),
  aacAdts: Buffer.concat([Buffer.from([0xff, 0xf1, 0x50, 0x80]), Buffer.alloc(64)]),
  png: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  pdf: Buffer.from('%PDF-1.7\n%âãÏÓ', 'latin1'),
  text: Buffer.from('hello, this is not audio\n'),
  aviRiff: Buffer.concat([Buffer.from('RIFF\x10\x00\x00\x00AVI LIST', 'latin1'), Buffer.alloc(16)]),
} as const;
