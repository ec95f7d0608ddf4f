import type { FetchInit, MultipartField, RequestOptions } from './types';

export type Payload =
  | { kind: 'none' }
  | { kind: 'raw'; data: string | Uint8Array; contentType: string }
  | { kind: 'form'; fields: readonly MultipartField[] };

export function encodePayload(req: RequestOptions): Payload {
  if (req.form) return { kind: 'form', fields: req.form };
  if (req.body) return { kind: 'raw', data: req.body.data, contentType: req.body.contentType };
  if (req.json !== undefined) {
    return { kind: 'raw', data: JSON.stringify(req.json), contentType: 'application/json' };
  }
  return { kind: 'none' };
}

/** The fetch body (and its content type) for one attempt; forms are rebuilt every attempt. */
export function fetchBody(
  payload: Payload,
  onProgress: ((sentBytes: number) => void) | undefined,
  onBodyError: (error: unknown) => void,
): { body: FetchInit['body']; contentType: string | undefined; duplex: boolean } {
  switch (payload.kind) {
    case 'none':
      return { body: null, contentType: undefined, duplex: false };
    case 'raw':
      return { body: payload.data as FetchInit['body'], contentType: payload.contentType, duplex: false };
    case 'form': {
      const form = buildForm(payload.fields);
      // fetch encodes the form itself (boundary header included) and streams file-backed Blobs.
      if (!onProgress) return { body: form, contentType: undefined, duplex: false };
      // For progress the same encoding is read as a stream and counted on its way out.
      const encoded = new Response(form);
      return {
        body: countingStream(encoded.body, onProgress, onBodyError),
        contentType: encoded.headers.get('content-type') ?? undefined,
        duplex: true,
      };
    }
  }
}

function buildForm(fields: readonly MultipartField[]): FormData {
  const form = new FormData();
  for (const field of fields) {
    if ('value' in field) form.append(field.name, field.value);
    else if ('blob' in field) form.append(field.name, field.blob, field.filename);
    else {
      const type = field.contentType ?? 'application/octet-stream';
      form.append(field.name, new Blob([field.data as Uint8Array<ArrayBuffer>], { type }), field.filename);
    }
  }
  return form;
}

/**
 * The encoded body, counted on its way out. A failure to read it (a file that changed or vanished
 * mid-upload) is reported to `onBodyError` as well: fetch does not settle when a streamed request
 * body errors, so the transport aborts the attempt itself.
 */
function countingStream(
  source: ReadableStream<Uint8Array> | null,
  onProgress: (sentBytes: number) => void,
  onBodyError: (error: unknown) => void,
): ReadableStream<Uint8Array> | null {
  if (!source) return null;
  const reader = source.getReader();
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let step: Awaited<ReturnType<typeof reader.read>>;
      try {
        step = await reader.read();
      } catch (error) {
        onBodyError(error);
        throw error;
      }
      if (step.done) {
        controller.close();
        return;
      }
      sent += step.value.byteLength;
      controller.enqueue(step.value);
      onProgress(sent);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
