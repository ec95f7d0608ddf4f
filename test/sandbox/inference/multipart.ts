/** A small multipart/form-data parser (RFC 7578) over a fully buffered body. */

export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return undefined;
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function parseHeaders(block: string): { name?: string; filename?: string; contentType?: string } {
  const out: { name?: string; filename?: string; contentType?: string } = {};
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'content-disposition') {
      const name = /\bname="([^"]*)"/i.exec(value) ?? /\bname=([^;\s]+)/i.exec(value);
      const filename = /\bfilename="([^"]*)"/i.exec(value) ?? /\bfilename=([^;\s]+)/i.exec(value);
      if (name?.[1] !== undefined) out.name = name[1];
      if (filename?.[1] !== undefined) out.filename = filename[1];
    } else if (key === 'content-type') {
      out.contentType = value;
    }
  }
  return out;
}

/** Parts in order, or `undefined` when the body is not well-formed multipart. */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts;
    if (body.subarray(at, at + 2).toString() !== '\r\n') return undefined;
    at += 2;
    const headerEnd = body.indexOf('\r\n\r\n', at);
    if (headerEnd < 0) return undefined;
    const headers = parseHeaders(body.subarray(at, headerEnd).toString('utf8'));
    const dataStart = headerEnd + 4;
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), dataStart);
    if (next < 0) return undefined;
    if (headers.name === undefined) return undefined;
    const part: FormPart = { name: headers.name, data: body.subarray(dataStart, next) };
    if (headers.filename !== undefined) part.filename = headers.filename;
    if (headers.contentType !== undefined) part.contentType = headers.contentType;
    parts.push(part);
    at = next + 2;
  }
}
