// Request parameters of the legacy paths, turned into GraphQL variables, and GraphQL's field paths
// turned back into the parameter names clients sent.

import {
  coerceInputValue,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  getNullableType,
  getOperationAST,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  typeFromAST,
} from 'graphql';
import { activityTypeName } from '../domain/activity.ts';

/** `workout[distance][value]=3` → `{ workout: { distance: { value: '3' } } }`. The first value of a name wins. */
export function nestBracketed(entries: Iterable<[string, string | File]>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
    if (!match) continue;
    const keys = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    if (keys.some((k) => k === '' || k === '__proto__' || k === 'constructor' || k === 'prototype')) continue;
    let node = root;
    keys.forEach((key, i) => {
      if (i === keys.length - 1) {
        if (!(key in node)) node[key] = value;
        return;
      }
      if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
      node = node[key] as Record<string, unknown>;
    });
  }
  return root;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** A GraphQL input path (`workout.distance.value`, `input.workout.activityType`) as the client named it (`workout[distance][value]`). */
export function restFieldName(graphqlPath: string): string {
  const [first, ...rest] = graphqlPath
    .replace(/^input\./, '')
    .split('.')
    .map(snake);
  return first + rest.map((key) => `[${key}]`).join('');
}

/** A number from a form string, or the string itself so that GraphQL names the field it cannot read. */
function numeric(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : value;
}

/**
 * An enum from SPEC's lower-case spelling (`running`, `cc_skiing`), or the display form clients also
 * send (`Cc Skiing`), to GraphQL's (`CC_SKIING`); anything else as sent, so that GraphQL names it.
 */
export function enumValue(value: unknown): unknown {
  return (typeof value === 'string' && activityTypeName(value)) || value;
}

function pick(source: Record<string, unknown>, conversions: Record<string, (value: unknown) => unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    const field = camel(key);
    const convert = conversions[field];
    if (convert && value !== undefined && value !== '') out[field] = convert(value);
  }
  return out;
}

const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : value);
const object = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** SPEC 4.3's parameters as CreateEntryInput. Unknown parameters are ignored, as the original service did. */
export function createEntryInput(params: Record<string, unknown>): Record<string, unknown> {
  // `visibility`: everyone, friends or only_me; a client that never sends it gets the person's default
  const input = pick(params, { message: text, lat: numeric, lon: numeric, location: text, visibility: enumValue });
  if ('location' in input) {
    input.placeName = input.location;
    delete input.location;
  }
  const workout = object(params.workout);
  if (workout) {
    const w = pick(workout, {
      activityType: enumValue,
      completedAt: text,
      duration: numeric,
      felt: enumValue,
      calories: numeric,
      title: text,
      routeId: numeric,
      gearId: numeric,
    });
    const distance = object(workout.distance);
    if (distance) w.distance = pick(distance, { value: numeric, units: enumValue });
    input.workout = w;
  } else if (params.workout !== undefined) {
    input.workout = params.workout;
  }
  const media = object(params.media);
  // `media[data]`: the photo itself, a file of a multipart form (anything else is refused by its type)
  if (media) input.media = pick(media, { type: enumValue, url: text, previewUrl: text, data: (value) => value });
  return input;
}

/** A path's id segment as a database id (1 to 999,999,999), or null when it cannot name a row. */
export function positiveId(value: string | undefined): number | null {
  return value && /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** What a built-in scalar must be, in the client's words. */
const SCALAR_WORDS: Record<string, string> = {
  Int: 'a whole number',
  Float: 'a number',
  String: 'text',
  Boolean: 'true or false',
  ID: 'an id',
};

const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value)));

/** The input type found by following `path` (field names and list indexes) down from `type`. */
function typeAt(type: GraphQLInputType, path: ReadonlyArray<string | number>): GraphQLInputType {
  let current = type;
  for (const step of path) {
    const nullable = getNullableType(current);
    if (isListType(nullable) && typeof step === 'number') current = nullable.ofType;
    else if (isInputObjectType(nullable) && typeof step === 'string' && nullable.getFields()[step])
      current = nullable.getFields()[step]!.type;
  }
  return current;
}

/**
 * Checks the variables a REST path built against the types its operation declares, the way execution
 * would (graphql-js's coerceInputValue), and names each problem by the client's parameter name
 * (`workout[distance][value]`), from the structured path of the failure.
 */
export function variableProblems(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const definition of getOperationAST(document)?.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type) continue;
    const problem = (path: ReadonlyArray<string | number>, message: string): void => {
      problems.push({ field: restFieldName([name, ...path].join('.')), message });
    };
    if (variables[name] === undefined || variables[name] === null) {
      if (isNonNullType(type) && !definition.defaultValue) problem([], 'is required');
      continue;
    }
    coerceInputValue(variables[name], type, (path, invalid, error) => {
      const at = typeAt(type, path);
      const nullable = getNullableType(at);
      if (invalid === undefined || invalid === null) return problem(path, 'is required');
      if (isInputObjectType(nullable) && typeof invalid === 'object' && !Array.isArray(invalid)) {
        // a required field left out: name it (graphql-js says it only in its message)
        const missing = Object.values(nullable.getFields()).filter(
          (f) => isNonNullType(f.type) && f.defaultValue === undefined && (invalid as Record<string, unknown>)[f.name] == null,
        );
        if (missing.length) {
          for (const field of missing) problem([...path, field.name], 'is required');
          return;
        }
      }
      if (isEnumType(nullable)) return problem(path, `${shown(String(invalid).toLowerCase())} is not one of the allowed values`);
      const words = isScalarType(nullable) ? SCALAR_WORDS[nullable.name] : undefined;
      problem(path, words ? `must be ${words}: ${shown(invalid)}` : error.message);
    });
  }
  // one problem per parameter, in the order they were found
  return problems.filter((p, i) => problems.findIndex((q) => q.field === p.field) === i);
}

/** A number as a query string writes it, whole or decimal (`since=1795102588.0`); null for anything else. */
export function decimalParam(value: string): number | null {
  return /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : null;
}
