// Photos as entries carry them: an upload is checked by its bytes, never by its name or declared type,
// then re-encoded (turned upright, with no EXIF, so no GPS position leaves the server) with a JPEG
// preview. The work runs in libvips' threads, off the event loop; a decompression bomb is refused from
// its header, before any pixel is decoded.
import sharp, { type Metadata } from 'sharp';
import { ValidationError } from '../domain/errors.ts';

/** The largest photo accepted, in bytes. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The most pixels a photo may have (all frames of an animation together): a 6,000 × 4,000 camera is 24 M. */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** The preview's longest side, in pixels. */
export const PREVIEW_SIZE = 320;
/** Decoding and encoding one photo may take at most this long. */
const TIMEOUT_SECONDS = 20;

const FORMATS = { jpeg: 'jpg', png: 'png', webp: 'webp', gif: 'gif' } as const;
export type ImageFormat = keyof typeof FORMATS;
export const CONTENT_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' };

// nothing decoded is kept between uploads
sharp.cache(false);

/**
 * Photos decoded at once. A photo at the pixel limit takes about 160 MB decoded, so uploads beyond
 * these wait their turn: memory stays bounded however many arrive together.
 */
export const IMAGE_JOBS = 2;
let running = 0;
const waiting: Array<() => void> = [];

/** Photos being decoded now (tests read it). */
export function imageJobsRunning(): number {
  return running;
}

async function inTurn<T>(job: () => Promise<T>): Promise<T> {
  // a finishing job hands its turn to the first waiter, so that none can slip in between
  if (running >= IMAGE_JOBS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await job();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export interface ProcessedImage {
  content: { bytes: Buffer; extension: string };
  preview: { bytes: Buffer; extension: string };
  width: number;
  height: number;
}

/** A refusal of the upload, named as the input names it (REST: `media[data]`). */
const refuse = (message: string) => ValidationError.field('media.data', message);

/** Checks an uploaded photo by its bytes and makes what is served of it; throws ValidationError naming media.data. */
export async function processImage(upload: Blob): Promise<ProcessedImage> {
  if (upload.size === 0) throw refuse('is empty');
  if (upload.size > MAX_IMAGE_BYTES) throw refuse(`must be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  return inTurn(() => decode(upload));
}

async function decode(upload: Blob): Promise<ProcessedImage> {
  const input = Buffer.from(await upload.arrayBuffer());
  let metadata: Metadata;
  try {
    // the header only: format and dimensions, nothing decoded
    // (no pixel limit here: the dimensions are checked below, by the rule this service states)
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw refuse('is not a JPEG, PNG, WebP or GIF image');
  }
  const format = metadata.format as string;
  if (!(format in FORMATS)) throw refuse('is not a JPEG, PNG, WebP or GIF image');
  const pages = metadata.pages ?? 1;
  const pixels = (metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0) * pages;
  if (!metadata.width || !metadata.height) throw refuse('is not a JPEG, PNG, WebP or GIF image');
  if (pixels > MAX_IMAGE_PIXELS) throw refuse(`has too many pixels (at most ${MAX_IMAGE_PIXELS / 1_000_000} million)`);
  const animated = format === 'gif' || format === 'webp' ? pages > 1 : false;
  try {
    // re-encoded in its own format (every frame of an animation), upright, and without metadata
    // (sharp keeps none unless asked); the preview is of the first frame
    const content = await sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', animated })
      .timeout({ seconds: TIMEOUT_SECONDS })
      .rotate()
      .toFormat(format as ImageFormat)
      .toBuffer({ resolveWithObject: true });
    const preview = await sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
      .timeout({ seconds: TIMEOUT_SECONDS })
      .rotate()
      .resize(PREVIEW_SIZE, PREVIEW_SIZE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80, mozjpeg: true })
      .toBuffer();
    return {
      content: { bytes: content.data, extension: FORMATS[format as ImageFormat] },
      preview: { bytes: preview, extension: 'jpg' },
      width: content.info.width,
      height: content.info.height,
    };
  } catch {
    // a header that promised an image over bytes that are not one (truncated, corrupt)
    throw refuse('is a damaged image that cannot be read');
  }
}
