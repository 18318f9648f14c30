// What a remote server may read here: each athlete's actor (with their keys, made the first time they
// are asked for), an entry's Note, an athlete's outbox, followers and following, and NodeInfo.
import { type Context, exportJwk, type Federation, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import { Endpoints, Image, Note, Person, type Recipient } from '@fedify/vocab';
import { LRUCache } from 'lru-cache';
import { countFollowers, instanceUsage, readFollowerInboxes, readFollowingUris, readKeys, storeKeys } from '../db/federation.ts';
import type { FediverseKit } from './kit.ts';
import { createOf, noteOf, paragraph } from './notes.ts';

const PAGE = 50;
export const VERSION = '0.1.0';

/**
 * Key pairs imported, per person: every signed request (a delivery, and each fetch that handles an
 * activity sent to them) asks for them, and reading and importing them each time cost three statements
 * and two key imports an activity. A person's keys never change once made.
 */
const importedKeys = new LRUCache<number, Promise<CryptoKeyPair[]>>({ max: 1_000 });

/** The person's key pairs (RSA for HTTP Signatures, Ed25519 for proofs), made and stored the first time. */
function keyPairsOf(kit: FediverseKit, personId: number): Promise<CryptoKeyPair[]> {
  let pairs = importedKeys.get(personId);
  if (!pairs) {
    pairs = readKeyPairs(kit, personId);
    importedKeys.set(personId, pairs);
    // a failed read is not kept
    pairs.catch(() => importedKeys.delete(personId));
  }
  return pairs;
}

async function readKeyPairs(kit: FediverseKit, personId: number): Promise<CryptoKeyPair[]> {
  let stored = await readKeys(kit.prisma, personId);
  if (stored.length === 0) {
    const made = await Promise.all(
      (['RSASSA-PKCS1-v1_5', 'Ed25519'] as const).map(async (algorithm) => {
        const pair = await generateCryptoKeyPair(algorithm);
        return {
          algorithm,
          publicKey: JSON.stringify(await exportJwk(pair.publicKey)),
          privateKey: JSON.stringify(await exportJwk(pair.privateKey)),
        };
      }),
    );
    stored = await storeKeys(kit.prisma, personId, made);
  }
  return Promise.all(
    stored.map(async (key) => ({
      publicKey: await importJwk(JSON.parse(key.publicKey) as JsonWebKey, 'public'),
      privateKey: await importJwk(JSON.parse(key.privateKey) as JsonWebKey, 'private'),
    })),
  );
}

/** The athlete's actor, at their page's URL, as anyone sees their profile; null for nobody, or one out of the fediverse. */
export async function actorOf(ctx: Context<void>, kit: FediverseKit, identifier: string): Promise<Person | null> {
  const person = await kit.read().actor(identifier);
  const settings = person && (await kit.federatedPerson(person.username));
  if (!person || !settings || person.username !== identifier) return null;
  const keys = await ctx.getActorKeyPairs(identifier);
  return new Person({
    id: ctx.getActorUri(identifier),
    preferredUsername: person.username,
    name: person.displayName,
    summary: person.goal ? paragraph(person.goal) : null,
    url: new URL(person.url),
    icon: new Image({ url: new URL(person.photoUrl) }),
    inbox: ctx.getInboxUri(identifier),
    outbox: ctx.getOutboxUri(identifier),
    followers: ctx.getFollowersUri(identifier),
    following: ctx.getFollowingUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    manuallyApprovesFollowers: !settings.fediverseAutoAccept,
    discoverable: true,
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
  });
}

function setActor(federation: Federation<void>, kit: FediverseKit): void {
  federation
    .setActorDispatcher('/people/{identifier}', (ctx, identifier) => actorOf(ctx, kit, identifier))
    // WebFinger asks in any letter case: the identifier is the username as it was registered
    .mapHandle(async (_ctx, handle) => (await kit.federatedPerson(handle))?.username ?? null)
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      const person = await kit.federatedPerson(identifier);
      return person ? keyPairsOf(kit, person.id) : [];
    });
}

/** The athlete's followers: a page of 50 for a reader, every one for a delivery to them all. */
function setFollowers(federation: Federation<void>, kit: FediverseKit): void {
  federation
    .setFollowersDispatcher('/people/{identifier}/followers', async (_ctx, identifier, cursor) => {
      const person = await kit.federatedPerson(identifier);
      if (!person) return null;
      const limit = cursor === null ? 100_000 : PAGE;
      const rows = await readFollowerInboxes(kit.prisma, person.id, limit, cursor ? Number(cursor) || 0 : 0);
      const items: Recipient[] = rows.map((row) => ({
        id: new URL(row.actor.uri),
        inboxId: new URL(row.actor.inbox),
        endpoints: row.actor.sharedInbox ? { sharedInbox: new URL(row.actor.sharedInbox) } : null,
      }));
      const nextCursor = cursor !== null && rows.length === PAGE ? String(rows.at(-1)!.id) : null;
      return { items, nextCursor };
    })
    .setCounter(async (_ctx, identifier) => {
      const person = await kit.federatedPerson(identifier);
      return person ? countFollowers(kit.prisma, person.id) : null;
    })
    .setFirstCursor(() => '0');
}

/** An entry's Note, the outbox of public entries, and whom the athlete follows. */
function setCollections(federation: Federation<void>, kit: FediverseKit): void {
  federation.setObjectDispatcher(Note, '/entries/{id}', async (ctx, { id }) => {
    if (!/^\d{1,15}$/.test(id)) return null;
    const entry = await kit.read().entry(Number(id));
    return entry && (await kit.federatedPerson(entry.author.username)) ? noteOf(ctx, entry) : null;
  });
  federation
    .setOutboxDispatcher('/people/{identifier}/outbox', async (ctx, identifier, cursor) => {
      if (cursor === null) return null;
      const page = await kit.read().outbox(identifier, cursor === '' ? null : cursor);
      if (!page) return null;
      return { items: page.notes.map((entry) => createOf(ctx, entry)), nextCursor: page.next };
    })
    .setFirstCursor(() => '');
  federation
    .setFollowingDispatcher('/people/{identifier}/following', async (_ctx, identifier, cursor) => {
      const person = await kit.federatedPerson(identifier);
      if (!person || cursor === null) return null;
      const rows = await readFollowingUris(kit.prisma, person.id, PAGE, Number(cursor) || 0);
      return { items: rows.map((row) => new URL(row.actor.uri)), nextCursor: rows.length === PAGE ? String(rows.at(-1)!.id) : null };
    })
    .setFirstCursor(() => '0');
}

export function setDispatchers(federation: Federation<void>, kit: FediverseKit): void {
  setActor(federation, kit);
  setFollowers(federation, kit);
  setCollections(federation, kit);
  federation.setNodeInfoDispatcher('/nodeinfo/2.1', async () => {
    const usage = await instanceUsage(kit.prisma);
    return {
      software: { name: 'milepost', version: VERSION },
      protocols: ['activitypub'],
      openRegistrations: false,
      usage: { users: { total: usage.users }, localPosts: usage.posts, localComments: 0 },
    };
  });
}
