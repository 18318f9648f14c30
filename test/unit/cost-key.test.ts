// The cost limit keeps a document's cost per operation and variables. An upload in the variables is a
// leaf of the cost: the key marks it, and never holds its bytes (a 20 MB GPX upload once spent a second
// serializing its file into the key).
import { File } from '@whatwg-node/fetch';
import { describe, expect, it } from 'vitest';
import { costKey } from '../../src/http/graphql-hardening.ts';

describe('the cost cache key', () => {
  it('marks an upload instead of writing out its bytes', () => {
    // the File class yoga hands to resolvers from a multipart request
    const upload = new File([Buffer.alloc(5 * 1024 * 1024, 65)], 'run.gpx', { type: 'application/gpx+xml' });
    const key = costKey(null, { entryId: 7, gpx: upload });
    expect(key.length).toBeLessThan(64);
    expect(key).toBe(costKey(null, { entryId: 7, gpx: new File(['other'], 'other.gpx') }));
  });

  it('tells apart operations and variables that bear on the cost', () => {
    expect(costKey('A', { n: 1 })).not.toBe(costKey('A', { n: 100 }));
    expect(costKey('A', { n: 1 })).not.toBe(costKey('B', { n: 1 }));
    expect(costKey(undefined, { nested: { first: 5 }, list: [1, 2] })).toBe(costKey(null, { nested: { first: 5 }, list: [1, 2] }));
  });
});
