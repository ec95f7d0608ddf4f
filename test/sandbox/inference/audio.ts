/** Audio sniffing by content (magic bytes), never by file name or declared type. */

export type AudioFormat = 'wav' | 'mp3' | 'm4a';

/** Assumed bitrate (bytes per second) when the duration cannot be read from a header: 128 kbit/s. */
export const COMPRESSED_BYTES_PER_SECOND = 16_000;

export function detectAudioFormat(data: Buffer): AudioFormat | undefined {
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WAVE') return 'wav';
  if (data.length >= 3 && data.toString('latin1', 0, 3) === 'ID3') return 'mp3';
  // MPEG audio frame sync: 11 set bits, a valid version and a non-reserved layer.
  if (data.length >= 2 && data[0] === 0xff && ((data[1] ?? 0) & 0xe0) === 0xe0 && ((data[1] ?? 0) & 0x18) !== 0x08 && ((data[1] ?? 0) & 0x06) !== 0) return 'mp3';
  if (data.length >= 12 && data.toString('latin1', 4, 8) === 'ftyp') return 'm4a';
  return undefined;
}

/** WAV: data chunk size / byte rate from the fmt chunk. Others: size / 16 000 bytes per second. */
export function audioDurationSeconds(data: Buffer, format: AudioFormat): number {
  if (format === 'wav') {
    let byteRate = 0;
    let at = 12;
    while (at + 8 <= data.length) {
      const id = data.toString('latin1', at, at + 4);
      const size = data.readUInt32LE(at + 4);
      if (id === 'fmt ' && at + 20 <= data.length) byteRate = data.readUInt32LE(at + 16);
      if (id === 'data' && byteRate > 0) return Math.min(size, data.length - at - 8) / byteRate;
      at += 8 + size + (size % 2);
    }
  }
  return data.length / COMPRESSED_BYTES_PER_SECOND;
}
