// The whole HTTP service in-process: requests go through app.fetch, no port is opened.
import { type App, createApp } from '../../src/app/server.ts';
import type { DatabaseConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { testConfig } from './database.ts';

export const BASE = 'http://milepost.test';

export interface GraphQLResult<T = Record<string, unknown>> {
  status: number;
  data?: T;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

export function testApp(database: Database & { config: DatabaseConfig }, env: Record<string, string> = {}) {
  const app: App = createApp(testConfig(database.config, env), database);
  return {
    app,
    fetch: (path: string, init?: RequestInit) => app.fetch(`${BASE}${path}`, init),
    async graphql<T = Record<string, unknown>>(
      query: string,
      variables: Record<string, unknown> = {},
      token?: string,
    ): Promise<GraphQLResult<T>> {
      const response = await app.fetch(`${BASE}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, ...((await response.json()) as object) };
    },
    /** A GraphQL multipart request (the spec's `operations` and `map`): `file` as the variable `$file`. */
    async graphqlUpload<T = Record<string, unknown>>(query: string, file: Blob, name: string, token: string): Promise<GraphQLResult<T>> {
      const form = new FormData();
      form.set('operations', JSON.stringify({ query, variables: { file: null } }));
      form.set('map', JSON.stringify({ 0: ['variables.file'] }));
      form.set('0', file, name);
      const response = await app.fetch(`${BASE}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      return { status: response.status, ...((await response.json()) as object) };
    },
  };
}
