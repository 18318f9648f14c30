// Who a request acts for: resolved from its access token (src/auth/tokens.ts), read by every layer above.

/** The person an access token speaks for, and the app that holds it. */
export interface Viewer {
  readonly id: number;
  readonly username: string;
  readonly clientId: number | null;
}
