import type { GpxSource } from '../builder.ts';

/** Bytes of an uploaded file stream as they arrive; text is parsed as it is. */
export function gpxStream(source: GpxSource): string | AsyncIterable<Uint8Array> {
  return typeof source === 'string' ? source : (source.stream() as unknown as AsyncIterable<Uint8Array>);
}
