// A typed GraphQL client in a dozen lines: prints the public stream of a running Milepost.
//   npx tsx examples/feed-client.ts [http://localhost:3000]
import { print } from 'graphql';
import { PublicStreamDocument, type PublicStreamQuery } from './generated/graphql.ts';

const base = process.argv[2] ?? 'http://localhost:3000';
const response = await fetch(`${base}/graphql`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query: print(PublicStreamDocument), variables: { page: 1 } }),
});
const { data, errors } = (await response.json()) as { data: PublicStreamQuery | null; errors?: Array<{ message: string }> };
if (errors?.length) console.error(errors.map((error) => error.message).join('\n'));
for (const { node } of data?.publicStream?.edges ?? []) {
  const what = node.workout
    ? `${node.workout.activityType.toLowerCase()} ${node.workout.distance?.value ?? ''} ${node.workout.distance?.units.toLowerCase() ?? ''}`
    : 'note';
  console.log(`${node.at}  ${node.author.displayName.padEnd(12)} ${what.padEnd(24)} ${node.message ?? ''}`);
}
