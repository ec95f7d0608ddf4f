// A deterministic stand-in for an embedding model in bench/searchQuality.mjs (issue 41): no model
// runs here, yet the hybrid stage (embedding candidates joining the lexical ones before rerank)
// is counted. A text's vector: its terms (the index's tokenizer) and their character trigrams,
// hashed into DIMS dimensions, each weighed 1 + log(count) (trigrams at TRIGRAM_WEIGHT: `computer`
// lands near `compute`), then normalised. Same text, same vector, on any machine.

const DIMS = 512;
const TRIGRAM_WEIGHT = 0.3;

/** FNV-1a of a string, as an unsigned 32-bit number. */
function hash(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * @param {(text: string) => string[]} tokenize
 * @returns {(text: string) => number[]}
 */
export function standInVector(tokenize) {
  return (text) => {
    const counts = new Map();
    const bump = (key, w) => counts.set(key, (counts.get(key) ?? 0) + w);
    for (const term of tokenize(text)) {
      bump(term, 1);
      const padded = `^${term}$`;
      for (let i = 0; i + 3 <= padded.length; i++) bump(`#${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
    }
    const v = new Array(DIMS).fill(0);
    for (const [key, n] of counts) {
      const h = hash(key);
      v[h % DIMS] += (h & 0x80000000 ? -1 : 1) * (1 + Math.log(n));
    }
    const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
    return v.map((x) => x / norm);
  };
}

/**
 * The part of the inference client search uses, with the stand-in's vectors and no rerank.
 * @param {(text: string) => number[]} vectorOf
 */
export function standInInference(vectorOf) {
  return {
    listModels: () => Promise.resolve([{ id: 'stand-in', kind: 'embedding', created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen: 8192 }]),
    /** @param {{ model: string, input: string | string[] }} request */
    embed: (request) => {
      const inputs = Array.isArray(request.input) ? request.input : [request.input];
      return Promise.resolve({ embeddings: inputs.map(vectorOf), model: request.model, usage: undefined, meta: { status: 200, requestId: undefined, rateLimit: undefined } });
    },
    rerank: () => Promise.reject(new Error('the bench measures the local stage only')),
  };
}
