// An archive uploaded from the account page, streamed to disk as it arrives (busboy): a 2 GB export never
// sits in memory. The form's CSRF field must come before the file, as the page's form places it, so
// that nothing is written for a forged form.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { discardRest } from './body.ts';

/** The largest archive the account page takes. */
export const MAX_ARCHIVE_UPLOAD_BYTES = 4 * 1024 ** 3;

export type ReceivedArchive = { ok: true; path: string; fileName: string } | { ok: false; status: 400 | 403 | 413 | 422; message: string };

export async function receiveArchive(
  request: Request,
  directory: string,
  csrfValid: (token: string | null) => boolean,
): Promise<ReceivedArchive> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data') || !request.body)
    return { ok: false, status: 400, message: 'archive: send the form as multipart/form-data' };
  await mkdir(directory, { recursive: true });
  const target = path.join(directory, `.upload-${randomBytes(12).toString('hex')}.zip`);
  let csrf: string | null = null;
  let result: ReceivedArchive | null = null;
  // set by the parser's events: a holder, so that the read after parsing sees what they set
  const upload: { writing: Promise<void> | null } = { writing: null };
  const parser = busboy({
    headers: { 'content-type': type },
    limits: { files: 1, fields: 10, fieldSize: 4096, fileSize: MAX_ARCHIVE_UPLOAD_BYTES },
  });
  parser.on('field', (name, value) => {
    if (name === 'csrf') csrf = value;
  });
  parser.on('file', (name, stream, info) => {
    if (name !== 'archive' || result) {
      stream.resume();
      return;
    }
    if (!csrfValid(csrf)) {
      result = { ok: false, status: 403, message: 'the form expired or came from another site' };
      stream.resume();
      return;
    }
    stream.on('limit', () => {
      result = { ok: false, status: 413, message: `archive: is larger than ${MAX_ARCHIVE_UPLOAD_BYTES} bytes` };
    });
    upload.writing = pipeline(stream, createWriteStream(target)).then(() => {
      result ??= { ok: true, path: target, fileName: path.basename(info.filename || 'archive.zip') };
    });
  });
  const reader = request.body.getReader();
  try {
    await pipeline(
      Readable.from(
        (async function* () {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            yield value;
          }
        })(),
      ),
      parser,
    );
    await upload.writing;
  } catch {
    void discardRest(reader);
    result = { ok: false, status: 400, message: 'archive: the form body cannot be read' };
  }
  let received = result ?? { ok: false, status: csrfValid(csrf) ? 422 : 403, message: 'archive: choose the zip to import' };
  // told at once, not by a failed job later (which would also hold up the next, good import)
  if (received.ok && !(await isZip(target))) {
    received = {
      ok: false,
      status: 422,
      message: 'archive: is not a zip archive; post a single GPX, FIT or TCX file from the home page instead',
    };
  }
  if (!received.ok) await rm(target, { force: true });
  return received;
}

/** Whether a file begins as a zip archive does: a local file header, or the end record of an empty one. */
async function isZip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0);
    return (
      bytesRead === 4 &&
      buffer[0] === 0x50 &&
      buffer[1] === 0x4b &&
      ((buffer[2] === 3 && buffer[3] === 4) || (buffer[2] === 5 && buffer[3] === 6))
    );
  } finally {
    await handle.close();
  }
}
