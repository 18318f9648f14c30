// GraphQL stream pages put together from each entry's JSON, kept per version, as the REST
// layer puts its pages together (cache/entry-fragments.ts). For a query that reads one stream and asks
// of its entries only what their kept documents hold (db/entry-pages.ts), executing those twenty
// entries' thousand-odd fields and serializing them was most of a request's CPU.
//
// Such a query runs first with each entry's selection replaced by its id; the page read records the
// version each entry was read at. When every entry's JSON for this selection is kept at that version,
// the answer is the rest of the result with those texts in place. Otherwise the query runs whole (its
// entries also asked for their ids, under an alias nobody else uses), and each entry's JSON is kept at
// the version that read found, then taken out of the answer.
//
// The answer is the same either way, byte for byte: the same document runs through the same envelop;
// only the fields below the stream's `node` are taken from earlier answers, and only fields whose
// values are their entry's version and the origin alone are allowed there (ENTRY_FIELDS). Anything
// else (a track's points, a person's friends or stats, arguments, directives, variables) runs as before.
import { randomUUID } from 'node:crypto';
import {
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  getOperationAST,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  visit,
} from 'graphql';
import { type EntryFragments, EntryVersions, pageOf } from './entry-fragments.ts';

/** The streams whose pages may be put together: root fields answering an `EntryConnection`. */
const STREAMS = new Set(['publicStream', 'popularStream', 'friendsStream', 'personStream', 'nearbyStream', 'searchEntries']);

/**
 * Of each type below an entry, the fields whose values follow from the entry's version (its columns,
 * author, workout, track, comments, likes, counts and its author's privacy settings) and the origin,
 * for every viewer alike but the author (whose versions are their own: db/entry-pages.ts), with the
 * type of their value when it has fields. A field that comes to depend on the viewer, or on anything
 * no revision covers, must leave this list (`test/db/spliced-pages.test.ts` compares answers for the
 * author and for others).
 */
const ENTRY_FIELDS: Record<string, Record<string, string | null>> = {
  Entry: {
    id: null,
    databaseId: null,
    visibility: null,
    url: null,
    at: null,
    kind: null,
    message: null,
    commentCount: null,
    likeCount: null,
    workout: 'Workout',
    // the whole list, without arguments (plain): its pages and cursors follow from the document
    comments: 'CommentConnection',
    likes: 'LikeConnection',
    location: 'Location',
    geo: 'GeoPoint',
    media: 'Media',
    author: 'Person',
    // what its author's privacy settings let others see of it (the people revision covers those; the
    // track's own writes move the entry's revision); its author's side has versions of its own
    track: 'Track',
  },
  Person: {
    id: null,
    databaseId: null,
    username: null,
    displayName: null,
    url: null,
    photoUrl: null,
    location: null,
    timeZone: null,
    goal: null,
    units: null,
  },
  Workout: {
    activityType: null,
    calories: null,
    completedAt: null,
    distance: 'Distance',
    duration: null,
    felt: null,
    routeId: null,
    gearId: null,
    title: null,
  },
  CommentConnection: { edges: 'CommentEdge', pageInfo: 'PageInfo', totalCount: null },
  CommentEdge: { cursor: null, node: 'Comment' },
  LikeConnection: { edges: 'LikeEdge', pageInfo: 'PageInfo', totalCount: null },
  LikeEdge: { cursor: null, node: 'Like' },
  PageInfo: { hasNextPage: null, hasPreviousPage: null, startCursor: null, endCursor: null },
  Comment: { id: null, databaseId: null, body: null, createdAt: null, author: 'Person' },
  Like: { id: null, databaseId: null, createdAt: null, person: 'Person' },
  Track: {
    name: null,
    distanceMeters: null,
    elevationGain: null,
    startedAt: null,
    endedAt: null,
    pointCount: null,
    polyline: null,
    repairs: null,
    updatedAt: null,
  },
  Distance: { value: null, units: null },
  GeoPoint: { latitude: null, longitude: null, coordinates: null, type: null },
  Location: { name: null },
  Media: { content: 'MediaObject', preview: 'MediaObject' },
  MediaObject: { type: null, url: null },
};

/** The alias an entry's id is asked for under: a name no client's selection uses (checked). */
const ID_ALIAS = 'milepostSplicedEntryId';

export interface SplicePlan {
  /** Names this selection of entries: their JSON is kept per plan. */
  readonly key: string;
  /** The variables the entries' selection uses (a list's page): their JSON is kept per their values too. */
  readonly variables: readonly string[];
  /** The query with each entry's selection replaced by its id. */
  readonly ids: DocumentNode;
  /** The query as sent, its entries also asking for their ids. */
  readonly whole: DocumentNode;
  /** Response keys from the result's `data` to the page's edges: [stream, edges]; then `node`. */
  readonly path: readonly [string, string];
  readonly node: string;
}

const responseKey = (field: FieldNode) => field.alias?.value ?? field.name.value;
const plain = (field: FieldNode) => !field.directives?.length && !field.arguments?.length;

/** The arguments a list below an entry may be given: its page (`comments(first: 5)`), which the document decides alone. */
const PAGE_ARGUMENTS = new Set(['first', 'after', 'last', 'before']);
const PAGED = new Set(['CommentConnection', 'LikeConnection']);

/**
 * Whether `field`, of type `child` below an entry, takes only arguments that page one of its lists,
 * each a literal or a variable; the variables' names go to `variables`, whose values the kept JSON
 * then depends on as well.
 */
function pageArgumentsOnly(field: FieldNode, child: string | null | undefined, variables: Set<string>): boolean {
  if (!field.arguments?.length) return true;
  if (!child || !PAGED.has(child)) return false;
  return field.arguments.every((argument) => {
    if (!PAGE_ARGUMENTS.has(argument.name.value)) return false;
    const { value } = argument;
    if (value.kind === Kind.VARIABLE) variables.add(value.name.value);
    return value.kind === Kind.VARIABLE || value.kind === Kind.INT || value.kind === Kind.STRING || value.kind === Kind.NULL;
  });
}

/**
 * Whether `set`, on `type`, asks only for fields of ENTRY_FIELDS (through fragments too), with no
 * arguments but a list's page; the variables those use are added to `variables`.
 */
function onlyDocumentFields(
  set: SelectionSetNode,
  type: string,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Set<string>,
  depth = 0,
): boolean {
  if (depth > 20) return false;
  const fields = ENTRY_FIELDS[type]!;
  return set.selections.every((selection) => {
    if (selection.directives?.length) return false;
    if (selection.kind === Kind.FIELD) {
      if (responseKey(selection) === ID_ALIAS) return false;
      const name = selection.name.value;
      if (name === '__typename') return true;
      if (!Object.hasOwn(fields, name)) return false;
      const child = fields[name];
      if (!pageArgumentsOnly(selection, child, variables)) return false;
      return child
        ? !!selection.selectionSet && onlyDocumentFields(selection.selectionSet, child, fragments, variables, depth + 1)
        : !selection.selectionSet;
    }
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
    if (!fragment || (fragment.typeCondition && fragment.typeCondition.name.value !== type)) return false;
    return onlyDocumentFields(fragment.selectionSet, type, fragments, variables, depth + 1);
  });
}

/** The one field named `name` of `set` (through inline fragments), if there is exactly one and nothing else in `set` is a named fragment. */
function single(set: SelectionSetNode, name: string): FieldNode | null {
  const found: FieldNode[] = [];
  const look = (inner: SelectionSetNode): boolean =>
    inner.selections.every((selection) => {
      if (selection.kind === Kind.FRAGMENT_SPREAD || selection.directives?.length) return false;
      if (selection.kind === Kind.INLINE_FRAGMENT) return look(selection.selectionSet);
      if (selection.name.value === name) found.push(selection);
      return true;
    });
  return look(set) && found.length === 1 && plain(found[0]!) ? found[0]! : null;
}

/** `document` with the selection set of `node` replaced by `selections`. */
function withNodeSelections(document: DocumentNode, node: FieldNode, selections: SelectionSetNode['selections']): DocumentNode {
  return visit(document, {
    Field: (field) => (field === node ? { ...node, selectionSet: { kind: Kind.SELECTION_SET, selections } } : undefined),
  });
}

const idField: FieldNode = {
  kind: Kind.FIELD,
  alias: { kind: Kind.NAME, value: ID_ALIAS },
  name: { kind: Kind.NAME, value: 'databaseId' },
};

/** The plan of a query whose stream page may be put together; null for any other. */
export function planOf(document: DocumentNode, operationName: string | undefined, key: string): SplicePlan | null {
  const operation: OperationDefinitionNode | null | undefined = getOperationAST(document, operationName);
  if (operation?.operation !== 'query' || operation.selectionSet.selections.length !== 1) return null;
  const stream = operation.selectionSet.selections[0]!;
  if (stream.kind !== Kind.FIELD || !STREAMS.has(stream.name.value) || stream.directives?.length || !stream.selectionSet) return null;
  const edges = single(stream.selectionSet, 'edges');
  const node = edges?.selectionSet ? single(edges.selectionSet, 'node') : null;
  if (!edges || !node?.selectionSet) return null;
  const fragments = new Map(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition]] : [],
    ),
  );
  const variables = new Set<string>();
  if (!onlyDocumentFields(node.selectionSet, 'Entry', fragments, variables)) return null;
  return {
    key,
    variables: [...variables].sort(),
    ids: withNodeSelections(document, node, [idField]),
    whole: withNodeSelections(document, node, [idField, ...node.selectionSet.selections]),
    path: [responseKey(stream), responseKey(edges)],
    node: responseKey(node),
  };
}

type Edge = Record<string, unknown>;

/** The longest text of the variables an entry's JSON is kept under (a list's page and cursors), past which a page runs whole. */
const MAX_VARIABLES_KEY = 256;

/**
 * What an entry's JSON for `plan` depends on besides its version: the origin, and the values of the
 * variables its selection uses (one absent apart from one null); null when those are too long to key
 * a cache by (a client's long cursors would grow the keys, which the cache's bound does not count).
 */
function scopeOf(plan: SplicePlan, origin: string, variables: Readonly<Record<string, unknown>>): string | null {
  if (plan.variables.length === 0) return `${plan.key} ${origin}`;
  const values = JSON.stringify(plan.variables.map((name) => (Object.hasOwn(variables, name) ? [variables[name]] : [])));
  return values.length > MAX_VARIABLES_KEY ? null : `${plan.key} ${values} ${origin}`;
}

/** Plans made in this process: each names its entries' JSON, in whichever SplicedPages shares the store. */
let planned = 0;

/** A run whose answer is not put together here (errors, extensions): the caller answers it as before. */
export class NotSpliced extends Error {}

/**
 * Puts the pages of planned queries together from their entries' kept JSON. `run` executes a document
 * (the query's own envelop, context and variables); `versions` gets what its page reads recorded.
 */
export class SplicedPages {
  private readonly plans = new WeakMap<DocumentNode, Map<string, SplicePlan | null>>();
  private readonly marker = `milepost-entry-${randomUUID()}-`;

  constructor(private readonly fragments: EntryFragments) {}

  plan(document: DocumentNode, operationName: string | undefined): SplicePlan | null {
    let byName = this.plans.get(document);
    if (!byName) this.plans.set(document, (byName = new Map()));
    const name = operationName ?? '';
    if (!byName.has(name)) byName.set(name, planOf(document, operationName, `q${++planned}`));
    return byName.get(name)!;
  }

  /** The answer's JSON; throws NotSpliced when a run had errors or extensions. */
  async answer(
    plan: SplicePlan,
    origin: string,
    variables: Readonly<Record<string, unknown>>,
    run: (document: DocumentNode, recorder: EntryVersions) => Promise<ExecutionResult>,
  ): Promise<string> {
    const page = await this.page(plan, origin, variables, run);
    return this.spliced(page.rest.result, page.rest.edges ?? [], plan, page.entries);
  }

  /** The run whose entries' JSON goes in (the ids' when every entry's is kept), and that JSON. */
  private async page(
    plan: SplicePlan,
    origin: string,
    variables: Readonly<Record<string, unknown>>,
    run: (document: DocumentNode, recorder: EntryVersions) => Promise<ExecutionResult>,
  ) {
    const scope = scopeOf(plan, origin, variables);
    if (scope === null) throw new NotSpliced();
    const execute = async (document: DocumentNode) => {
      const recorder = new EntryVersions();
      const result = await run(document, recorder);
      const versions = recorder.versions;
      if (result.errors || result.extensions) throw new NotSpliced();
      return { result, edges: this.edgesOf(plan, result.data), versions };
    };
    const page = await pageOf(
      this.fragments,
      plan.key,
      scope,
      async () => {
        const { result, edges, versions } = await execute(plan.ids);
        return { rest: { result, edges }, ids: edges?.map((edge) => this.entryOf(plan, edge).id) ?? null, versions };
      },
      async () => {
        const { result, edges, versions } = await execute(plan.whole);
        const entries = (edges ?? []).map((edge) => {
          const { id, entry } = this.entryOf(plan, edge);
          return { id, json: () => JSON.stringify(entry) };
        });
        return { rest: { result, edges }, entries, versions };
      },
    );
    return page;
  }

  /**
   * The JSON of the stream's page alone, without its `__typename` (what a REST answer carries: the
   * generated API's), put together as `answer` puts the whole answer; null when the stream answered
   * anything but a page of entries (an error type) or the run was not put together (NotSpliced).
   */
  async streamValue(
    plan: SplicePlan,
    origin: string,
    variables: Readonly<Record<string, unknown>>,
    run: (document: DocumentNode, recorder: EntryVersions) => Promise<ExecutionResult>,
  ): Promise<string | null> {
    let page: Awaited<ReturnType<SplicedPages['page']>>;
    try {
      page = await this.page(plan, origin, variables, run);
    } catch (error) {
      if (error instanceof NotSpliced) return null;
      throw error;
    }
    const stream = (page.rest.result.data as Record<string, Record<string, unknown> | null> | undefined)?.[plan.path[0]];
    if (stream?.__typename !== 'EntryConnection') return null;
    const { __typename, ...connection } = stream;
    return this.spliced(connection, page.rest.edges ?? [], plan, page.entries);
  }

  /** An edge's entry without the id it was asked for under the alias, and that id. */
  private entryOf(plan: SplicePlan, edge: Edge): { id: number; entry: Record<string, unknown> } {
    const { [ID_ALIAS]: id, ...entry } = edge[plan.node] as Record<string, unknown>;
    return { id: id as number, entry };
  }

  /** The page's edges in `data`, or null when the stream answered an error type (no edges). */
  private edgesOf(plan: SplicePlan, data: unknown): Edge[] | null {
    const stream = (data as Record<string, Record<string, unknown> | null> | undefined)?.[plan.path[0]];
    const edges = stream?.[plan.path[1]];
    return Array.isArray(edges) ? (edges as Edge[]) : null;
  }

  /** `result` serialized with each edge's entry replaced by its JSON. */
  private spliced(result: object, edges: Edge[], plan: SplicePlan, texts: string[]): string {
    edges.forEach((edge, i) => {
      edge[plan.node] = `${this.marker}${i}`;
    });
    const skeleton = JSON.stringify(result);
    let out = '';
    let from = 0;
    for (let i = 0; i < texts.length; i++) {
      const placeholder = `"${this.marker}${i}"`;
      const at = skeleton.indexOf(placeholder, from);
      if (at < 0) throw new Error('a spliced page lost the place of one of its entries');
      out += skeleton.slice(from, at) + texts[i];
      from = at + placeholder.length;
    }
    return out + skeleton.slice(from);
  }
}
