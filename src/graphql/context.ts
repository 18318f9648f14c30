import type { Prisma } from '../db/database.ts';

/** The person an access token speaks for, and the app that holds it. */
export interface Viewer {
  readonly id: number;
  readonly username: string;
  readonly clientId: number | null;
}

export interface Context {
  readonly prisma: Prisma;
  readonly viewer: Viewer | null;
  /** Absolute origin for the `url` fields, e.g. `https://milepost.example`. */
  readonly baseUrl: string;
}
