export { rerank, rerankPath } from './rerank';
export type { RerankHit, RerankRequest, RerankResult } from './types';
