// Incremental delivery (`@defer`, `@stream`; yoga's defer-stream plugin): such a document answers in
// parts, as multipart/mixed or server-sent events. The paths built for one JSON answer (graphql-jit's
// compiled execution, the direct-query and spliced-page fast paths, the response cache) leave it to
// yoga's own executor.
import { BREAK, type DocumentNode, visit } from 'graphql';

const INCREMENTAL = new Set(['defer', 'stream']);
const known = new WeakMap<DocumentNode, boolean>();

/** Whether the document asks for any part of its answer later (`@defer` or `@stream` anywhere). */
export function deliversIncrementally(document: DocumentNode): boolean {
  let found = known.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      Directive(directive) {
        if (!INCREMENTAL.has(directive.name.value)) return undefined;
        found = true;
        return BREAK;
      },
    });
    known.set(document, found);
  }
  return found;
}
