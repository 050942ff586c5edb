// Reads a multipart/form-data request into its named parts with busboy (never by hand), with size caps.
// A part may come as a file or as a plain field: callers look parts up by name only.
// Never imports client or server code.

import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';

export class MultipartError extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

export interface MultipartLimits {
  /** Largest part, in bytes. */
  partBytes: number;
  parts: number;
}

/** Part name -> bytes (the first part of each name wins). */
export function readMultipart(req: IncomingMessage, limits: MultipartLimits): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const type = req.headers['content-type'] ?? '';
    if (!/^multipart\/form-data\b/i.test(type)) {
      req.resume();
      reject(
        new MultipartError(`the request is ${type || 'without a content type'}, not multipart/form-data`),
      );
      return;
    }
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: {
          fileSize: limits.partBytes,
          fieldSize: limits.partBytes,
          parts: limits.parts,
          files: limits.parts,
        },
      });
    } catch (err) {
      req.resume();
      reject(new MultipartError(`the multipart request is malformed (${(err as Error).message})`));
      return;
    }
    const parts = new Map<string, Buffer>();
    let failed = false;
    const fail = (e: MultipartError) => {
      if (failed) return;
      failed = true;
      req.unpipe(bb);
      req.resume();
      reject(e);
    };
    bb.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () =>
        fail(new MultipartError(`part "${name}" is larger than ${limits.partBytes} bytes`, true)),
      );
      stream.on('end', () => {
        if (!parts.has(name)) parts.set(name, Buffer.concat(chunks));
      });
    });
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated)
        fail(new MultipartError(`part "${name}" is larger than ${limits.partBytes} bytes`, true));
      else if (!parts.has(name)) parts.set(name, Buffer.from(value, 'utf8'));
    });
    bb.on('partsLimit', () => fail(new MultipartError(`more than ${limits.parts} parts`)));
    bb.on('error', (err: Error) =>
      fail(new MultipartError(`the multipart request is malformed (${err.message})`)),
    );
    bb.on('close', () => {
      if (!failed) resolve(parts);
    });
    req.pipe(bb);
  });
}
