import type { ChatRequest } from '../inference/chat/types';
import { estimateTextTokens } from '../inference/models/tokens';
import type { PageImage } from './types';

/** What the model is asked: Markdown, tables as tables, nothing else. */
export const OCR_INSTRUCTION = 'Convert this page to Markdown. Keep the reading order, write tables as Markdown tables, and output only the Markdown.';

/** Context assumed when the catalogue does not say (the contract's smallest OCR model). */
export const DEFAULT_MAX_MODEL_LEN = 8192;
/** Longest answer asked for: one dense page of Markdown. */
export const MAX_ANSWER_TOKENS = 4096;
/** Below this, a page's Markdown would be cut: refuse rather than send. */
export const MIN_ANSWER_TOKENS = 256;
/** Vision encoders cut images into patches of about this many pixels a side, one token each (an upper bound; OCR models compress further). */
const PATCH = 28;
/** Per-message overhead and chat template, in tokens. */
const OVERHEAD_TOKENS = 32;
/** Longest side an image is sent at, whatever the context: more does not read better. */
export const MAX_IMAGE_SIDE = 2048;

export function estimateImageTokens(width: number, height: number): number {
  return Math.ceil(width / PATCH) * Math.ceil(height / PATCH);
}

/** Half the context goes to the image, the other half to the instruction and the answer. */
export function imageTokenBudget(maxModelLen: number | undefined): number {
  return Math.floor((maxModelLen ?? DEFAULT_MAX_MODEL_LEN) / 2);
}

/**
 * The largest size (keeping the aspect ratio, no side over MAX_IMAGE_SIDE) at which a
 * `width` x `height` image costs at most the image budget of the model's context.
 */
export function fitImage(width: number, height: number, maxModelLen: number | undefined): { width: number; height: number } {
  const budget = imageTokenBudget(maxModelLen);
  let scale = Math.min(1, MAX_IMAGE_SIDE / width, MAX_IMAGE_SIDE / height);
  // Shrink until the patch count fits (a few steps: the first guess is the area ratio).
  for (let step = 0; step < 40; step++) {
    const w = Math.max(1, Math.floor(width * scale));
    const h = Math.max(1, Math.floor(height * scale));
    if (estimateImageTokens(w, h) <= budget) return { width: w, height: h };
    scale *= Math.min(0.97, Math.sqrt(budget / estimateImageTokens(w, h)));
  }
  return { width: PATCH, height: PATCH };
}

export type OcrRequestPlan = { ok: true; request: ChatRequest } | { ok: false; message: string };

/**
 * The chat request that reads one page: the image as an `image_url` data URI, the instruction,
 * temperature 0, and `max_tokens` what the context leaves after the image and the instruction.
 * Images of unknown size are counted at the whole image budget (the server's processor resizes them).
 */
export function ocrRequest(model: { id: string; maxModelLen?: number | undefined }, image: PageImage): OcrRequestPlan {
  const context = model.maxModelLen ?? DEFAULT_MAX_MODEL_LEN;
  const budget = imageTokenBudget(context);
  const imageTokens = image.width !== undefined && image.height !== undefined ? Math.min(budget, estimateImageTokens(image.width, image.height)) : budget;
  const left = context - imageTokens - estimateTextTokens(OCR_INSTRUCTION) - OVERHEAD_TOKENS;
  const maxTokens = Math.min(MAX_ANSWER_TOKENS, left);
  if (maxTokens < MIN_ANSWER_TOKENS) {
    return { ok: false, message: `${model.id} has a context of ${context} tokens: too small to read a page (the image alone takes about ${imageTokens}). Pick an OCR model with a larger context.` };
  }
  const url = `data:${image.mime};base64,${Buffer.from(image.bytes).toString('base64')}`;
  return {
    ok: true,
    request: {
      model: model.id,
      temperature: 0,
      max_tokens: maxTokens,
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }, { type: 'text', text: OCR_INSTRUCTION }] }],
    },
  };
}
