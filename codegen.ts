// GraphQL Code Generator: typed documents for clients of the committed schema.
// `npm run generate` prints schema/schema.graphql from the code, then runs this.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  generates: {
    'examples/generated/': {
      documents: ['examples/**/*.graphql'],
      preset: 'client',
      config: { scalars: { DateTime: 'string', UnixTime: 'number' }, enumsAsTypes: true, useTypeImports: true },
    },
    // the operations the REST layer and the pages run: typed results, no hand-written shapes
    'src/operations/generated.ts': {
      documents: ['src/operations/*.graphql'],
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        scalars: { DateTime: 'string', UnixTime: 'number', GpxDocument: 'unknown' },
        enumsAsTypes: true,
        useTypeImports: true,
        skipTypename: false,
        avoidOptionals: true,
        // the REST layer passes variables as clients sent them, for GraphQL's coercion to name what is wrong
        documentVariableSuffix: 'Document',
      },
    },
  },
  ignoreNoDocuments: false,
};

export default config;
