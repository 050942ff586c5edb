// Reads a multipart/form-data request into its named parts with busboy (never by hand), with size caps:
// per part, for the whole request, and on the number of parts. Only the parts a caller names are kept;
// the others are read and dropped, so an unused part costs no memory. A part may come as a file or as a
// plain field: callers look parts up by name only. Every stream error (a body cut off mid-part, a
// malformed boundary) ends in one MultipartError, never in an unhandled 'error' event that would take
// the whole sandbox down. Never imports client or server code.

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
  /** Largest request body, all parts and boundaries together, in bytes. */
  totalBytes: number;
  parts: number;
  /** Names of the parts to keep; undefined keeps every part (still within the limits). */
  keep?: ReadonlySet<string>;
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
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.totalBytes) {
      req.resume();
      reject(new MultipartError(`the request is larger than ${limits.totalBytes} bytes`, true));
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
    let received = 0;
    const fail = (e: MultipartError) => {
      if (failed) return;
      failed = true;
      req.unpipe(bb);
      req.off('data', count);
      // Drain what is left so the answer can still be read by the client; the body is never kept.
      req.resume();
      bb.removeAllListeners('close');
      // Busboy may still emit errors for the rest of the stream: they are answered already.
      bb.on('error', () => undefined);
      reject(e);
    };
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.totalBytes)
        fail(new MultipartError(`the request is larger than ${limits.totalBytes} bytes`, true));
    };
    req.on('data', count);
    // A client that goes away mid-body: an error on the request, never an unhandled one.
    req.on('error', (err: Error) => fail(new MultipartError(`the request was cut off (${err.message})`)));
    req.on('aborted', () => fail(new MultipartError('the request was cut off before its end')));
    req.on('close', () => {
      if (!req.complete) fail(new MultipartError('the request was cut off before its end'));
    });
    bb.on('file', (name, stream) => {
      // A cut-off body errors the part's stream too; without this handler the process would exit.
      stream.on('error', (err: Error) =>
        fail(new MultipartError(`part "${name}" is cut off (${err.message})`)),
      );
      stream.on('limit', () =>
        fail(new MultipartError(`part "${name}" is larger than ${limits.partBytes} bytes`, true)),
      );
      if ((limits.keep !== undefined && !limits.keep.has(name)) || parts.has(name)) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (!parts.has(name) && !failed) parts.set(name, Buffer.concat(chunks));
      });
    });
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated)
        fail(new MultipartError(`part "${name}" is larger than ${limits.partBytes} bytes`, true));
      else if ((limits.keep === undefined || limits.keep.has(name)) && !parts.has(name))
        parts.set(name, Buffer.from(value, 'utf8'));
    });
    bb.on('partsLimit', () => fail(new MultipartError(`more than ${limits.parts} parts`)));
    bb.on('filesLimit', () => fail(new MultipartError(`more than ${limits.parts} parts`)));
    bb.on('fieldsLimit', () => fail(new MultipartError(`more than ${limits.parts} parts`)));
    bb.on('error', (err: Error) =>
      fail(new MultipartError(`the multipart request is malformed (${err.message})`)),
    );
    bb.on('close', () => {
      if (!failed) resolve(parts);
    });
    req.pipe(bb);
  });
}
