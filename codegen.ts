// GraphQL Code Generator: typed documents for clients of the committed schema.
// `npm run generate` prints schema/schema.graphql from the code, then runs this.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['examples/**/*.graphql'],
  generates: {
    'examples/generated/': {
      preset: 'client',
      config: { scalars: { DateTime: 'string', UnixTime: 'number' }, enumsAsTypes: true, useTypeImports: true },
    },
  },
  ignoreNoDocuments: false,
};

export default config;
