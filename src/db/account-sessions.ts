// Accounts and their sessions in the database: sign-up, passwords (scrypt: people choose them), and the
// session a login opens, stored as the SHA-256 digest of its random token.
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { hashToken } from '../auth/tokens.ts';
import { PASSWORD_MAX, PASSWORD_MIN, type SignUpInput, usernameKey, validateSignUp } from '../domain/accounts.ts';
import { ValidationError } from '../domain/errors.ts';
import type { Prisma } from './database.ts';
import { isUniqueViolation } from './errors.ts';

export interface Account {
  id: number;
  username: string;
  displayName: string;
}

const ACCOUNT = { id: true, username: true, displayName: true } as const;

export async function createAccount(prisma: Prisma, input: SignUpInput): Promise<Account> {
  const valid = validateSignUp(input);
  const passwordHash = await hashPassword(valid.password);
  try {
    return await prisma.person.create({
      data: {
        username: valid.username,
        usernameKey: usernameKey(valid.username),
        displayName: valid.displayName,
        passwordHash,
        ...(valid.units && { units: valid.units }),
      },
      select: ACCOUNT,
    });
  } catch (error) {
    // the unique index decides, so two sign-ups racing for one name cannot both win
    if (isUniqueViolation(error)) throw ValidationError.field('username', `"${valid.username}" is taken`);
    throw error;
  }
}

/**
 * Gives an existing person a new password (an operator's reset, or a demo athlete made able to log in)
 * and ends their sessions, so that whoever knew the old one is logged out. Null when nobody has the name.
 */
export async function setPassword(prisma: Prisma, username: string, password: string): Promise<Account | null> {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
    throw ValidationError.field('password', `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  const person = await prisma.person.findUnique({ where: { usernameKey: usernameKey(username) }, select: ACCOUNT });
  if (!person) return null;
  const passwordHash = await hashPassword(password);
  await prisma.$transaction([
    prisma.person.update({ where: { id: person.id }, data: { passwordHash } }),
    prisma.session.updateMany({ where: { personId: person.id, revokedAt: null }, data: { revokedAt: new Date() } }),
  ]);
  return person;
}

/** The account for these credentials, or null; takes as long for an unknown username as for a wrong password. */
export async function checkPassword(prisma: Prisma, username: string, password: string): Promise<Account | null> {
  const person = await prisma.person.findUnique({
    where: { usernameKey: usernameKey(username) },
    select: { ...ACCOUNT, passwordHash: true, suspendedAt: true },
  });
  const ok = await verifyPassword(password, person?.passwordHash ?? null);
  // a suspended account does not log in
  if (!person || !ok || person.suspendedAt) return null;
  return { id: person.id, username: person.username, displayName: person.displayName };
}

export async function findAccount(prisma: Prisma, id: number): Promise<Account | null> {
  return prisma.person.findUnique({ where: { id }, select: ACCOUNT });
}

/** Starts a browser session for `personId`; only the token's hash is kept. */
export async function createSession(prisma: Prisma, personId: number, token: string, maxAgeSeconds: number): Promise<void> {
  await prisma.session.create({ data: { tokenHash: hashToken(token), personId, expiresAt: new Date(Date.now() + maxAgeSeconds * 1000) } });
}

/** The account of a live session (not ended, not expired), or null. */
export async function accountOfSession(prisma: Prisma, token: string): Promise<Account | null> {
  const session = await prisma.session.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { revokedAt: true, expiresAt: true, person: { select: { ...ACCOUNT, suspendedAt: true } } },
  });
  if (!session || session.revokedAt || session.expiresAt.getTime() <= Date.now()) return null;
  // a suspended account's sessions end at once
  if (session.person.suspendedAt) return null;
  const { suspendedAt: _suspended, ...account } = session.person;
  return account;
}

export async function endSession(prisma: Prisma, token: string): Promise<void> {
  await prisma.session.updateMany({ where: { tokenHash: hashToken(token), revokedAt: null }, data: { revokedAt: new Date() } });
}

export async function findAccountByUsername(prisma: Prisma, username: string): Promise<Account | null> {
  return prisma.person.findUnique({ where: { usernameKey: usernameKey(username) }, select: ACCOUNT });
}
