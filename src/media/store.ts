// Uploaded photos on disk, named by the digest of their bytes: a name never changes what it names, so
// it may be cached for good, and the same photo twice is stored once. Names are checked before any
// path is made of them.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_TYPES, type ProcessedImage } from './images.ts';

/** A stored file's name: 64 hex digits and its format's extension. */
const NAME = /^[0-9a-f]{64}\.(jpg|png|webp|gif)$/;

/** Where a stored photo is served, relative to the service's origin (see Entry.media). */
export const MEDIA_PATH = '/media/';

export interface MediaStore {
  /** The directory the files are kept in (MEDIA_DIR). */
  readonly directory: string;
  /** Stores a processed photo and its preview; returns their paths (`/media/<digest>.<ext>`). */
  save(image: ProcessedImage): Promise<{ content: string; preview: string }>;
  /** Stores only the preview of a processed photo (an avatar, shown small: nothing shows the full size); returns its path. */
  savePreview(image: ProcessedImage): Promise<string>;
  /** A stored file by its name, or null when the name is not one this store gives or nothing is there. */
  file(name: string): Promise<{ path: string; size: number; contentType: string } | null>;
  /** Removes stored files by their paths (`/media/<name>`); a path this store does not give is left alone. */
  remove(paths: readonly string[]): Promise<void>;
}

/** The stored file's name of a media path, or null when it is not one this store gives. */
export function mediaName(mediaPath: string): string | null {
  const name = mediaPath.startsWith(MEDIA_PATH) ? mediaPath.slice(MEDIA_PATH.length) : '';
  return NAME.test(name) ? name : null;
}

export function createMediaStore(directory: string): MediaStore {
  const write = async (bytes: Buffer, extension: string): Promise<string> => {
    const name = `${createHash('sha256').update(bytes).digest('hex')}.${extension}`;
    const target = path.join(directory, name);
    await mkdir(directory, { recursive: true });
    // written under a temporary name, flushed, then renamed: a crash never leaves half a photo under its name
    const temporary = path.join(directory, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return `${MEDIA_PATH}${name}`;
  };
  return {
    directory,
    async save(image) {
      return {
        content: await write(image.content.bytes, image.content.extension),
        preview: await write(image.preview.bytes, image.preview.extension),
      };
    },
    savePreview: (image) => write(image.preview.bytes, image.preview.extension),
    async file(name) {
      if (!NAME.test(name)) return null;
      const file = path.join(directory, name);
      const found = await stat(file).catch(() => null);
      if (!found?.isFile()) return null;
      return { path: file, size: found.size, contentType: CONTENT_TYPES[name.split('.').pop()!]! };
    },
    async remove(paths) {
      for (const mediaPath of paths) {
        const name = mediaName(mediaPath);
        if (name) await rm(path.join(directory, name), { force: true });
      }
    },
  };
}
