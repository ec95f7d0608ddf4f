export type ModelKind = 'chat' | 'vision' | 'embedding' | 'rerank' | 'speech' | 'ocr';

/** Caller-supplied kinds by model id (a setting), which win over inference from the id. */
export type ModelKindOverrides = Readonly<Record<string, ModelKind>>;

/** A `/v1/models` record, normalised. `maxModelLen` from the API is the truth for fitting. */
export interface ModelInfo {
  id: string;
  kind: ModelKind;
  created: number | undefined;
  ownedBy: string | undefined;
  root: string | undefined;
  aliases: string[];
  maxModelLen: number | undefined;
  /** Set by the user (`stratus.models.overrides`): the output budget, below the context length. */
  maxOutputTokens?: number;
  /** Set by the user: whether the model takes tools, over the guess from its family. */
  toolCalling?: boolean;
  /** Set by the user: whether the model reasons (thinks) before it answers. */
  reasoning?: boolean;
}
