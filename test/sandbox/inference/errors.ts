import { parseJsonBody, sendJson, type Headers, type RequestContext } from '../core/http';

/** An inference error as the contract's envelope describes it. */
export interface InferenceError {
  status: number;
  type: string;
  message: string;
  param?: string;
  code?: string;
}

export function invalid(message: string, param?: string): InferenceError {
  const error: InferenceError = { status: 400, type: 'invalid_request_error', message };
  if (param !== undefined) error.param = param;
  return error;
}

export function modelNotFound(model: string): InferenceError {
  return {
    status: 404,
    type: 'invalid_request_error',
    code: 'model_not_found',
    param: 'model',
    message: `The model '${model}' does not exist or you do not have access to it.`,
  };
}

export const AUTHENTICATION_ERROR: InferenceError = {
  status: 401,
  type: 'authentication_error',
  message: 'Invalid API key. Send "Authorization: Bearer <API key>".',
};

export function rateLimited(message: string): InferenceError {
  return { status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', message };
}

export const SERVER_ERROR: InferenceError = { status: 500, type: 'server_error', message: 'The server had an error while processing your request.' };

export const UNAVAILABLE_ERROR: InferenceError = {
  status: 503,
  type: 'service_unavailable_error',
  message: 'The service is temporarily unavailable. Please retry later.',
};

export function errorBody(error: InferenceError): { error: Record<string, string> } {
  const body: Record<string, string> = { message: error.message, type: error.type };
  if (error.param !== undefined) body.param = error.param;
  if (error.code !== undefined) body.code = error.code;
  return { error: body };
}

export function sendInferenceError(ctx: RequestContext, error: InferenceError, headers: Headers = {}): void {
  sendJson(ctx, error.status, errorBody(error), headers);
}

export function isInferenceError(value: unknown): value is InferenceError {
  return typeof value === 'object' && value !== null && 'status' in value && 'type' in value && 'message' in value;
}

/**
 * Reads a JSON body and validates it with `parse`; on a bad body or a validation error, answers
 * with the envelope and returns undefined.
 */
export function parseRequest<T extends object>(ctx: RequestContext, headers: Headers, parse: (body: unknown) => T | InferenceError): T | undefined {
  const body = parseJsonBody(ctx);
  if (!body.ok) {
    sendInferenceError(ctx, invalid('The request body must be a JSON object.'), headers);
    return undefined;
  }
  const parsed = parse(body.value);
  if (isInferenceError(parsed)) {
    sendInferenceError(ctx, parsed, headers);
    return undefined;
  }
  return parsed;
}
