import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import type { SandboxState } from '../state';
import type { ChatRequest, ImagePart } from './chatRequest';
import { rateLimited, SERVER_ERROR, type InferenceError } from './errors';
import { textReply, type ScriptedReply } from './script';

/**
 * The sandbox's OCR model (`deepseek-ocr:3b`): it answers from the image it is sent, never from
 * the instruction, so a test knows the Markdown a page gives.
 *
 * The image's text is a marker the fixture writes into the image itself:
 * - a PNG `tEXt` chunk with the keyword `stratus-ocr`, or a JPEG comment (COM segment); or
 * - the pixels: the first channel of the top rows, read left to right and row after row, up to a
 *   0 byte. Pixels survive a PDF (pdf-lib embeds them losslessly, pdf.js decodes them, Stratus
 *   re-encodes them as PNG) where metadata does not. Images wider than 2048 px would be scaled
 *   down by the client, so fixtures stay smaller.
 * The marker starts with `OCR1\n`; lines `!fault <status> <times> [retryAfterSeconds]` at its
 * start make the first <times> requests for that image fail with that status (429 carries
 * Retry-After), lines `!nonce <text>` only make the image unique (faults are counted per image);
 * the rest is the page's Markdown, answered as is.
 * Without a marker (or without an image) the model answers like any other (script.ts: the echo
 * naming each image's media type and size), as it did before it could read.
 * The production profile answers like DeepSeek-OCR in grounding mode: each block preceded by
 * `<|ref|>text<|/ref|><|det|>[[x1, y1, x2, y2]]<|/det|>`, which clients must strip.
 */

export const OCR_MARKER = 'OCR1\n';

const faultsSeen = new WeakMap<SandboxState, Map<string, number>>();

interface PngChunk {
  type: string;
  data: Buffer;
}

function pngChunks(png: Buffer): PngChunk[] {
  const chunks: PngChunk[] = [];
  for (let at = 8; at + 12 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    chunks.push({ type, data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
    if (type === 'IEND') break;
  }
  return chunks;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** The marker in a PNG's pixels (8-bit, not interlaced), or undefined. */
function pixelMarker(chunks: PngChunk[]): string | undefined {
  const header = chunks.find((c) => c.type === 'IHDR')?.data;
  if (!header || header.length < 13) return undefined;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const channels = CHANNELS[header[9] ?? -1];
  if (header[8] !== 8 || !channels || header[12] !== 0) return undefined;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  } catch {
    return undefined;
  }
  const stride = width * channels;
  let previous = new Uint8Array(stride);
  const bytes: number[] = [];
  for (let y = 0; y < height && (y + 1) * (stride + 1) <= raw.length; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? (row[i - channels] ?? 0) : 0;
      const b = previous[i] ?? 0;
      const c = i >= channels ? (previous[i - channels] ?? 0) : 0;
      const x = line[i] ?? 0;
      row[i] = (filter === 1 ? x + a : filter === 2 ? x + b : filter === 3 ? x + ((a + b) >> 1) : filter === 4 ? x + paeth(a, b, c) : x) & 0xff;
    }
    for (let px = 0; px < width; px++) {
      const value = row[px * channels] ?? 0;
      if (value === 0) return Buffer.from(bytes).toString('utf8');
      bytes.push(value);
    }
    if (y === 0 && !Buffer.from(bytes.slice(0, OCR_MARKER.length)).toString('latin1').startsWith(OCR_MARKER.slice(0, Math.min(bytes.length, OCR_MARKER.length)))) return undefined;
    previous = row;
  }
  return undefined;
}

function jpegComment(jpeg: Buffer): string | undefined {
  for (let at = 2; at + 4 <= jpeg.length && jpeg[at] === 0xff; ) {
    const marker = jpeg[at + 1];
    const length = jpeg.readUInt16BE(at + 2);
    if (marker === 0xfe) return jpeg.toString('utf8', at + 4, at + 2 + length);
    if (marker === 0xda) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/** The marker an image carries, if any. */
export function imageMarker(image: ImagePart): string | undefined {
  const data = image.data;
  let text: string | undefined;
  if (data.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) {
    const chunks = pngChunks(data);
    const meta = chunks.find((c) => c.type === 'tEXt' && c.data.toString('latin1').startsWith('stratus-ocr\0'));
    text = meta ? meta.data.toString('utf8', 'stratus-ocr\0'.length) : pixelMarker(chunks);
  } else if (data[0] === 0xff && data[1] === 0xd8) {
    text = jpegComment(data);
  }
  return text?.startsWith(OCR_MARKER) ? text.slice(OCR_MARKER.length) : undefined;
}

export type OcrReply = { kind: 'reply'; reply: ScriptedReply } | { kind: 'fault'; error: InferenceError; headers: Record<string, string> };

function grounded(markdown: string): string {
  return markdown
    .split(/\n{2,}/)
    .map((block, k) => `<|ref|>${block.startsWith('|') || block.startsWith('<table') ? 'table' : 'text'}<|/ref|><|det|>[[40, ${60 + k * 80}, 960, ${120 + k * 80}]]<|/det|>\n${block}`)
    .join('\n\n');
}

/** The OCR model's answer to a request with one image (see the module comment). */
export function ocrReply(state: SandboxState, request: ChatRequest): OcrReply | undefined {
  const user = [...request.messages].reverse().find((m) => m.role === 'user');
  const image = user?.images[0];
  const marker = image ? imageMarker(image) : undefined;
  if (!image || marker === undefined) return undefined;
  const digest = createHash('sha256').update(image.data).digest('hex');
  const lines = marker.split('\n');
  const faults: Array<{ status: number; times: number; retryAfter: number }> = [];
  for (let directive = lines[0]; directive?.startsWith('!fault ') || directive?.startsWith('!nonce '); directive = lines[0]) {
    lines.shift();
    if (!directive.startsWith('!fault ')) continue;
    const [status = 0, times = 1, retryAfter = 1] = directive.slice('!fault '.length).trim().split(/\s+/).map(Number);
    faults.push({ status, times, retryAfter });
  }
  const seen = faultsSeen.get(state) ?? new Map<string, number>();
  faultsSeen.set(state, seen);
  const count = seen.get(digest) ?? 0;
  seen.set(digest, count + 1);
  let skipped = 0;
  for (const fault of faults) {
    if (count < skipped + fault.times) {
      if (fault.status === 429) return { kind: 'fault', error: rateLimited('Too many requests for this page. Retry later.'), headers: { 'Retry-After': String(fault.retryAfter) } };
      return { kind: 'fault', error: { ...SERVER_ERROR, status: fault.status }, headers: {} };
    }
    skipped += fault.times;
  }
  const markdown = lines.join('\n');
  return { kind: 'reply', reply: textReply(state.profile === 'production' ? grounded(markdown) : markdown, '', request.effectiveMaxTokens) };
}
