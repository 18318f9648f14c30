// Photo uploads: `media[data]` of a multipart POST /entries.json (and an ImageFile in GraphQL's
// multipart requests) is judged by its bytes, stored, and served with a preview, upright and without
// EXIF (no GPS position); what is not an image, too large or a decompression bomb is a 422 naming it.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_JOBS, imageJobsRunning } from '../../src/media/images.ts';
import { BASE, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { createPerson, createToken } from '../support/factories.ts';

let db: TestDatabase;
let api: ReturnType<typeof testApp>;
let token: string;
let jpegWithGps: Buffer;

beforeAll(async () => {
  db = await createTestDatabase('photos');
  api = testApp(db);
  token = await createToken(db.prisma, (await createPerson(db.prisma)).id);
  jpegWithGps = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3a7' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'Phone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 48/1 16/1', GPSLongitudeRef: 'W', GPSLongitude: '122/1 16/1 19/1' },
    })
    .toBuffer();
});
afterAll(() => db.destroy());

function photoForm(bytes: Buffer | string, filename: string, type = 'image/jpeg', extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.set('message', 'with a photo');
  form.set('media[type]', 'image');
  form.set('media[data]', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), filename);
  for (const [name, value] of Object.entries(extra)) form.set(name, value);
  return form;
}

interface Answer {
  id: number;
  media: Array<{ content: { type: string; url: string }; preview: { type: string; url: string } }>;
  error: { code: string; fields: Array<{ field: string; message: string }> };
}

async function post(form: FormData) {
  const response = await api.fetch('/entries.json', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: response.status, json: (await response.json()) as Answer };
}

/** A PNG whose header claims `width` × `height` pixels, with a few bytes of image data behind it. */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('photo uploads', () => {
  it('stores a JPEG, serves it and a preview for good, upright and without its GPS position', async () => {
    expect((await sharp(jpegWithGps).metadata()).exif).toBeDefined();
    const created = await post(photoForm(jpegWithGps, 'run.jpg'));
    expect(created.status).toBe(201);
    const [media] = created.json.media as Array<{ content: { type: string; url: string }; preview: { type: string; url: string } }>;
    expect(media!.content).toEqual({ type: 'image', url: expect.stringMatching(new RegExp(`^${BASE}/media/[0-9a-f]{64}\\.jpg$`)) });
    expect(media!.preview.url).toMatch(new RegExp(`^${BASE}/media/[0-9a-f]{64}\\.jpg$`));
    // the entry read back shows the same
    expect((await (await api.fetch(`/entries/${created.json.id}.json`)).json()).media).toEqual(created.json.media);

    const served = await api.fetch(media!.content.url.slice(BASE.length));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(Number(served.headers.get('content-length'))).toBe(bytes.length);
    const metadata = await sharp(bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', 1200, 800]);
    expect(metadata.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('GPS'))).toBe(false);

    const preview = Buffer.from(await (await api.fetch(media!.preview.url.slice(BASE.length))).arrayBuffer());
    const previewMetadata = await sharp(preview).metadata();
    expect([previewMetadata.format, previewMetadata.width, previewMetadata.height]).toEqual(['jpeg', 320, 213]);
    expect(previewMetadata.exif).toBeUndefined();
    // a client holding it is told it has not changed
    const again = await api.fetch(media!.content.url.slice(BASE.length), { headers: { 'if-none-match': served.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('serves a photo only to those who may see an entry that shows it, kept by no shared cache unless its entry is public', async () => {
    const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#a37' } })
      .jpeg()
      .toBuffer();
    const created = await post(photoForm(photo, 'secret.jpg'));
    const paths = [created.json.media[0]!.content.url, created.json.media[0]!.preview.url].map((url) => url.slice(BASE.length));
    const stranger = await createToken(db.prisma, (await createPerson(db.prisma)).id);
    const fetchAs = (path: string, who?: string) => api.fetch(path, who ? { headers: { authorization: `Bearer ${who}` } } : {});
    for (const path of paths) expect((await fetchAs(path)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const hidden = await api.graphql<{ updateEntry: { error: { __typename: string } | null } }>(
      `mutation { updateEntry(input: { id: ${created.json.id}, visibility: ONLY_ME }) { error { __typename } } }`,
      {},
      token,
    );
    expect(hidden.data!.updateEntry.error).toBeNull();
    for (const path of paths) {
      expect((await fetchAs(path)).status).toBe(404);
      expect((await fetchAs(path, stranger)).status).toBe(404);
      const own = await fetchAs(path, token);
      expect(own.status).toBe(200);
      expect(own.headers.get('cache-control')).toBe('private, no-cache');
      expect(own.headers.get('vary')).toContain('Authorization');
    }
  });

  it('judges by the bytes, not the name: a PNG named .jpg is a PNG, a text file named .jpg is refused', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#f00c' } })
      .png()
      .toBuffer();
    const created = await post(photoForm(png, 'photo.jpg', 'image/jpeg'));
    expect(created.status).toBe(201);
    const url = (created.json.media as Array<{ content: { url: string } }>)[0]!.content.url;
    expect(url).toMatch(/\.png$/);
    expect((await api.fetch(url.slice(BASE.length))).headers.get('content-type')).toBe('image/png');
    for (const format of ['webp', 'gif'] as const) {
      const bytes = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#00f' } })
        .toFormat(format)
        .toBuffer();
      const other = await post(photoForm(bytes, `photo.${format}`, `image/${format}`));
      expect(other.status).toBe(201);
      expect((other.json.media as Array<{ content: { url: string } }>)[0]!.content.url).toMatch(new RegExp(`\\.${format}$`));
    }

    for (const [bytes, name] of [
      ['just some text, honestly', 'photo.jpg'],
      [jpegWithGps.subarray(0, 200), 'truncated.jpg'],
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image.svg'],
    ] as const) {
      const refused = await post(photoForm(bytes as Buffer | string, name));
      expect(refused.status).toBe(422);
      expect(refused.json).toMatchObject({ error: { code: 'VALIDATION_FAILED', fields: [{ field: 'media[data]' }] } });
    }
  });

  it('refuses a photo over 10 MB, and a 20,000 × 20,000 PNG from its header, naming media[data]', async () => {
    const large = Buffer.concat([jpegWithGps, Buffer.alloc(12 * 1024 * 1024)]);
    const tooLarge = await post(photoForm(large, 'large.jpg'));
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.json.error.fields).toEqual([{ field: 'media[data]', message: 'must be at most 10 MB' }]);

    const bomb = pngHeader(20_000, 20_000);
    expect(bomb.length).toBeLessThan(100);
    const refused = await post(photoForm(bomb, 'bomb.png', 'image/png'));
    expect(refused.status).toBe(422);
    expect(refused.json.error.fields).toEqual([{ field: 'media[data]', message: expect.stringMatching(/too many pixels/) }]);
  });

  it('takes either a URL or the photo, not both, and serves nothing but stored photos', async () => {
    const both = await post(photoForm(jpegWithGps, 'run.jpg', 'image/jpeg', { 'media[url]': 'https://example.com/a.jpg' }));
    expect(both.status).toBe(422);
    expect(both.json.error.fields.map((f: { field: string }) => f.field)).toEqual(['media[url]']);
    const text = await api.fetch('/entries.json', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'media[type]=image&media[data]=aGVsbG8=',
    });
    expect(text.status).toBe(422);
    expect(((await text.json()) as { error: { fields: Array<{ field: string }> } }).error.fields.map((f) => f.field)).toEqual([
      'media[data]',
    ]);
    for (const path of [
      '/media/nothing.jpg',
      `/media/${'0'.repeat(64)}.jpg`,
      '/media/..%2f..%2fetc%2fpasswd',
      '/media/..%5c..%5cmilepost.db',
    ]) {
      expect((await api.fetch(path)).status).toBe(404);
    }
  });

  it('decodes at most two photos at once however many arrive together (memory stays bounded)', async () => {
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, imageJobsRunning())), 1);
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post(photoForm(jpegWithGps, `burst-${i}.jpg`))));
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(IMAGE_JOBS);
    expect(imageJobsRunning()).toBe(0);
  });

  it('takes the photo through GraphQL as a multipart upload (ImageFile)', async () => {
    const form = new FormData();
    form.set(
      'operations',
      JSON.stringify({
        query:
          'mutation ($photo: ImageFile!) { createEntry(input: { media: { type: IMAGE, data: $photo } }) { entry { media { content { url } preview { url } } } error { __typename ... on ValidationError { issues { path message } } } } }',
        variables: { photo: null },
      }),
    );
    form.set('map', JSON.stringify({ 0: ['variables.photo'] }));
    form.set('0', new Blob([new Uint8Array(jpegWithGps)], { type: 'image/jpeg' }), 'run.jpg');
    const response = await api.fetch('/graphql', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const result = (await response.json()) as {
      data: { createEntry: { error: unknown; entry: { media: Array<{ content: { url: string } }> } } };
    };
    expect(result.data.createEntry.error).toBeNull();
    expect(result.data.createEntry.entry.media[0]!.content.url).toMatch(new RegExp(`^${BASE}/media/[0-9a-f]{64}\\.jpg$`));
  });

  it('takes an avatar as an upload: served to anyone, 320 pixels wide, without EXIF; a bad one is refused by name', async () => {
    const person = await createPerson(db.prisma);
    const own = await createToken(db.prisma, person.id);
    const upload = async (photo: Buffer | string, fields = '') => {
      const form = new FormData();
      form.set(
        'operations',
        JSON.stringify({
          query: `mutation ($photo: ImageFile!) { updateProfile(input: { photo: $photo ${fields} }) { person { photoUrl } error { __typename ... on ValidationError { issues { path message } } } } }`,
          variables: { photo: null },
        }),
      );
      form.set('map', JSON.stringify({ 0: ['variables.photo'] }));
      form.set('0', new Blob([typeof photo === 'string' ? photo : new Uint8Array(photo)], { type: 'image/jpeg' }), 'me.jpg');
      const response = await api.fetch('/graphql', { method: 'POST', headers: { authorization: `Bearer ${own}` }, body: form });
      return (
        (await response.json()) as { data: { updateProfile: { person: { photoUrl: string } | null; error: { issues?: unknown } | null } } }
      ).data.updateProfile;
    };
    const done = await upload(jpegWithGps);
    expect(done.error).toBeNull();
    const url = done.person!.photoUrl;
    expect(url).toMatch(new RegExp(`^${BASE}/media/[0-9a-f]{64}\\.jpg$`));
    // anyone may fetch it, with no token, as the profile it belongs to
    const served = await api.fetch(url.slice(BASE.length));
    expect(served.status).toBe(200);
    const metadata = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(metadata.width).toBe(320);
    expect(metadata.exif).toBeUndefined();
    // the REST shape names it too
    const legacy = (await (await api.fetch(`/people/${person.username}.json`)).json()) as { photo_url: string };
    expect(legacy.photo_url).toBe(url);
    // not an image, or both an upload and an address: refused, naming the field; the avatar stays
    expect((await upload('not a picture')).error).toMatchObject({ issues: [{ path: 'photo' }] });
    expect((await upload(jpegWithGps, ', photoUrl: "https://pictures.example/me.png"')).error).toMatchObject({
      issues: [{ path: 'photo' }],
    });
    const after = (await api.graphql(`{ person(username: "${person.username}") { photoUrl } }`)).data as { person: { photoUrl: string } };
    expect(after.person.photoUrl).toBe(url);
  });
});
