// Checks answers against the OpenAPI document the service serves: each answer's path, method and
// status must be described, and its JSON must fit the described schema.
import { Ajv2020 } from 'ajv/dist/2020.js';

export interface SeenResponse {
  method: string;
  /** The path as requested, with its extension where it had one. */
  path: string;
  status: number;
  contentType: string;
  json: unknown;
}

interface Doc {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components: unknown;
}

/** What does not conform, one line each, and how many JSON bodies were checked. */
export function conformance(doc: Doc, seen: SeenResponse[], pathOf: (path: string) => string = (path) => path) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: 'milepost', components: doc.components });
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\.(json|gpx)$/, '').replace(/\{\w+\}/g, '[^/]+')}$`),
  }));
  const problems: string[] = [];
  let checked = 0;
  for (const response of seen) {
    if (response.status === 204) continue;
    const path = pathOf(new URL(response.path, 'http://milepost.test').pathname);
    // a fixed path before one with parameters: /entries/nearby is not the entry "nearby"
    const match = templates
      .filter((t) => t.pattern.test(path))
      .sort((a, b) => (a.template.indexOf('{') === -1 ? -1 : b.template.indexOf('{') === -1 ? 1 : 0))[0];
    if (!match) {
      if (response.status !== 404) problems.push(`${response.method} ${response.path}: no path in the document`);
      continue;
    }
    const operation = doc.paths[match.template]![response.method.toLowerCase()];
    // a method the path does not have: the document's info says every path answers 405 with the error body
    const described = operation
      ? operation.responses[String(response.status)]
      : response.status === 405
        ? { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
        : undefined;
    if (!described) {
      problems.push(`${response.method} ${match.template}: status ${response.status} not described`);
      continue;
    }
    if (!response.contentType.startsWith('application/json')) continue;
    const schema = described.content?.['application/json']?.schema;
    if (!schema) continue;
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"milepost#/components')));
    checked += 1;
    if (!validate(response.json))
      problems.push(`${response.method} ${response.path} ${response.status}: ${ajv.errorsText(validate.errors)}`);
  }
  return { problems, checked };
}
