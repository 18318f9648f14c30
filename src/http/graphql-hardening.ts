// Limits on what one GraphQL document may ask, so that a single request cannot exhaust the server:
// depth, cost, aliases, tokens and directives (graphql-armor), no field suggestions (they leak the
// schema when introspection is off), and introspection itself where configured off.
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.ts';

export const GRAPHQL_LIMITS = {
  // a feed with comments' authors is 6 deep; the REST operations are within these too
  maxDepth: 12,
  maxCost: 20_000,
  maxAliases: 15,
  maxTokens: 3_000,
  maxDirectives: 50,
};

export function graphqlHardening(config: Pick<Config, 'introspection'>): Plugin[] {
  const plugins: Plugin[] = [
    EnvelopArmorPlugin({
      maxDepth: { n: GRAPHQL_LIMITS.maxDepth, ignoreIntrospection: true },
      costLimit: { maxCost: GRAPHQL_LIMITS.maxCost, ignoreIntrospection: true },
      maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
      maxTokens: { n: GRAPHQL_LIMITS.maxTokens },
      maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
      blockFieldSuggestion: { enabled: true },
    }) as Plugin,
  ];
  if (!config.introspection) {
    plugins.push({
      onValidate({ addValidationRule }) {
        addValidationRule(NoSchemaIntrospectionCustomRule);
      },
    });
  }
  return plugins;
}
