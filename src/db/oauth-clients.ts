// The apps registered with the authorization server (OAuth clients): their redirect URIs, their legacy
// options, and their secrets, stored as SHA-256 digests (random 256-bit values: a fast hash suffices).
import { randomBytes } from 'node:crypto';
import { hashToken } from '../auth/tokens.ts';
import { type AppInput, validateApp } from '../domain/accounts.ts';
import type { Prisma } from './database.ts';

export interface RegisteredApp {
  id: number;
  clientId: string;
  name: string;
  confidential: boolean;
  redirectUris: string[];
  /** Legacy flows this app opted in to: the user-agent flow, plain-http callbacks, tokens that never expire. */
  allowImplicit: boolean;
  allowPlainHttp: boolean;
  legacyTokens: boolean;
}

export interface CreatedApp extends RegisteredApp {
  /** Shown once; only its hash is kept. Null for public clients, which have none. */
  clientSecret: string | null;
}

/** What an app is read with: its registration as the pages and the token endpoint use it. */
export const APP = {
  id: true,
  clientId: true,
  name: true,
  confidential: true,
  allowImplicit: true,
  allowPlainHttp: true,
  legacyTokens: true,
  redirectUris: { select: { uri: true }, orderBy: { id: 'asc' } },
} as const;
type AppRow = {
  id: number;
  clientId: string;
  name: string;
  confidential: boolean;
  allowImplicit: boolean;
  allowPlainHttp: boolean;
  legacyTokens: boolean;
  redirectUris: Array<{ uri: string }>;
};
export const toApp = (row: AppRow): RegisteredApp => ({ ...row, redirectUris: row.redirectUris.map((r) => r.uri) });

/**
 * A client_id: 20 base64url characters that never begin with `-`. One in 64 did, and such an id
 * cannot follow an option on a command line (`--client-id -x…` reads as another option): the cause
 * of a CLI test that failed once in a while.
 */
export function newClientId(): string {
  for (;;) {
    const id = randomBytes(15).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/** Registers an app; answers it with its client secret (shown once) for a confidential client. */
export async function registerApp(prisma: Prisma, ownerId: number | null, input: AppInput): Promise<CreatedApp> {
  const valid = validateApp(input);
  const clientId = newClientId();
  const clientSecret = valid.confidential ? randomBytes(32).toString('base64url') : null;
  const row = await prisma.oAuthClient.create({
    data: {
      clientId,
      name: valid.name,
      confidential: valid.confidential,
      allowImplicit: valid.allowImplicit ?? false,
      allowPlainHttp: valid.allowPlainHttp ?? false,
      legacyTokens: valid.legacyTokens ?? false,
      secretHash: clientSecret ? hashToken(clientSecret) : null,
      ownerId,
      redirectUris: { create: valid.redirectUris.map((uri) => ({ uri })) },
    },
    select: APP,
  });
  return { ...toApp(row), clientSecret };
}

export async function findApp(prisma: Prisma, clientId: string): Promise<(RegisteredApp & { secretHash: string | null }) | null> {
  const row = await prisma.oAuthClient.findUnique({ where: { clientId }, select: { ...APP, secretHash: true } });
  return row ? { ...toApp(row), secretHash: row.secretHash } : null;
}

export async function appsOwnedBy(prisma: Prisma, ownerId: number): Promise<Array<RegisteredApp & { webhookUrl: string | null }>> {
  const rows = await prisma.oAuthClient.findMany({ where: { ownerId }, select: { ...APP, webhookUrl: true }, orderBy: { id: 'asc' } });
  return rows.map((row) => ({ ...toApp(row), webhookUrl: row.webhookUrl }));
}

/** The app scripts' tokens belong to when no client is named: created on first use. */
export async function scriptsApp(prisma: Prisma): Promise<{ id: number; clientId: string }> {
  const clientId = 'milepost-cli';
  return prisma.oAuthClient.upsert({
    where: { clientId },
    create: { clientId, name: 'Milepost command line', confidential: false },
    update: {},
    select: { id: true, clientId: true },
  });
}
