import { parseRateLimitHeaders, type RateLimitInfo } from '../../http/rateLimitHeaders';
import type { HttpResponse } from '../../http/types';

/** What a response tells us besides its body: for support (request id) and the usage meter. */
export interface ResponseMeta {
  status: number;
  requestId: string | undefined;
  rateLimit: RateLimitInfo | undefined;
}

export function responseMeta(res: HttpResponse): ResponseMeta {
  return { status: res.status, requestId: res.requestId, rateLimit: parseRateLimitHeaders(res.headers) };
}
