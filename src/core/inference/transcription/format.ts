/**
 * Audio format detection by content (magic bytes), never by the file name: a `.wav` that holds
 * text is refused before it is uploaded, and an `.mp3` that holds a WAV is sent as a WAV.
 */

export type AudioFormat = 'wav' | 'mp3' | 'm4a' | 'ogg' | 'flac' | 'webm';

/** The formats the contract lists; the others are sent too but a service may refuse them. */
export const CONTRACT_FORMATS: readonly AudioFormat[] = ['wav', 'mp3', 'm4a'];
export const AUDIO_FORMATS: readonly AudioFormat[] = ['wav', 'mp3', 'm4a', 'ogg', 'flac', 'webm'];

/**
 * How many leading bytes to read: detection needs 12, a WAV header with LIST/bext chunks before
 * `data` a few hundred; the rest of the file is never read here.
 */
export const HEADER_BYTES = 4096;

const MIME: Record<AudioFormat, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  webm: 'audio/webm',
};

export function mimeTypeOf(format: AudioFormat): string {
  return MIME[format];
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  let out = '';
  for (let i = at; i < at + length && i < bytes.length; i++) out += String.fromCharCode(bytes[i] ?? 0);
  return out;
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((b, i) => bytes[at + i] === b);
}

/** MPEG audio frame header: 11 sync bits, a valid version, a layer that is not the reserved one (ADTS AAC uses it). */
function isMpegFrame(bytes: Uint8Array): boolean {
  const b0 = bytes[0];
  const b1 = bytes[1];
  const b2 = bytes[2];
  if (b0 !== 0xff || b1 === undefined || b2 === undefined) return false;
  if ((b1 & 0xe0) !== 0xe0) return false;
  if ((b1 & 0x18) === 0x08) return false; // reserved version
  if ((b1 & 0x06) === 0) return false; // reserved layer
  if ((b2 & 0xf0) === 0xf0) return false; // bad bitrate index
  if ((b2 & 0x0c) === 0x0c) return false; // reserved sample rate
  return true;
}

/** The audio format of a file from its first bytes (up to `HEADER_BYTES`). */
export function detectAudioFormat(bytes: Uint8Array): AudioFormat | undefined {
  const riff = ascii(bytes, 0, 4);
  if ((riff === 'RIFF' || riff === 'RF64') && ascii(bytes, 8, 4) === 'WAVE') return 'wav';
  if (ascii(bytes, 0, 3) === 'ID3') return 'mp3';
  if (isMpegFrame(bytes)) return 'mp3';
  if (ascii(bytes, 4, 4) === 'ftyp') return 'm4a';
  if (ascii(bytes, 0, 4) === 'OggS') return 'ogg';
  if (ascii(bytes, 0, 4) === 'fLaC') return 'flac';
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'webm';
  return undefined;
}

/** What a non-audio file looks like, for the error message ("a PNG image", "text"). */
export function describeContent(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'nothing (the file is empty)';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) return 'a PNG image';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'a JPEG image';
  if (ascii(bytes, 0, 4) === '%PDF') return 'a PDF document';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'a ZIP archive (or an Office document)';
  if (ascii(bytes, 0, 4) === 'RIFF') return `a RIFF file of type "${ascii(bytes, 8, 4).replace(/[^\x20-\x7e]/g, '?')}", not WAVE audio`;
  const printable = [...bytes].every((b) => b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b !== 0x7f));
  if (printable) return 'text';
  return 'unrecognised binary data';
}

/**
 * Audio length from the header where the header says it exactly: WAV (data size / byte rate) and
 * FLAC (total samples / sample rate in STREAMINFO). `undefined` for other formats or when the
 * header does not say (streamed WAV with a 0 or 0xFFFFFFFF size, FLAC with 0 total samples).
 * `fileSize` bounds a WAV data chunk that claims more bytes than the file has.
 */
export function headerDurationSeconds(bytes: Uint8Array, format: AudioFormat, fileSize: number): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'wav' && ascii(bytes, 0, 4) === 'RIFF') {
    let byteRate = 0;
    let at = 12;
    while (at + 8 <= bytes.length) {
      const id = ascii(bytes, at, 4);
      const size = view.getUint32(at + 4, true);
      if (id === 'fmt ' && at + 16 <= bytes.length) byteRate = view.getUint32(at + 16, true);
      if (id === 'data') {
        if (byteRate === 0 || size === 0 || size === 0xffffffff) return undefined;
        return Math.min(size, Math.max(0, fileSize - at - 8)) / byteRate;
      }
      at += 8 + size + (size % 2);
    }
    return undefined;
  }
  if (format === 'flac' && bytes.length >= 26 && ascii(bytes, 0, 4) === 'fLaC' && (bytes[4] ?? 0x7f) % 128 === 0) {
    // STREAMINFO body starts at 8: sample rate (20 bits) at bit 80, total samples (36 bits) at bit 108.
    const b = (i: number): number => bytes[8 + i] ?? 0;
    const sampleRate = (b(10) << 12) | (b(11) << 4) | (b(12) >> 4);
    const totalSamples = (b(13) & 0x0f) * 2 ** 32 + ((b(14) << 24) >>> 0) + (b(15) << 16) + (b(16) << 8) + b(17);
    if (sampleRate === 0 || totalSamples === 0) return undefined;
    return totalSamples / sampleRate;
  }
  return undefined;
}
