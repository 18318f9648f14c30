// Event ids on GraphQL's server-sent events. Yoga writes each subscription event as `event: next` and
// `data: <result>`; a result that came from the event bus carries that event's id in
// `extensions.eventId` (graphql/event-ids.ts), and this gives the event the same `id:` line, so that a
// client that loses the connection sends `Last-Event-ID` on its next request and is given what it
// missed (events/bus.ts keeps events REPLAY_WINDOW_MS for that).

/** A result's own event id: the last key of the result, as the event-ids plugin adds it. */
const EVENT_ID = /"eventId":"(\d{1,16}-\d{1,16})"\}\}$/;

/** The body of an SSE response, each `event: next` block given the `id:` of its result's event. */
export function withEventIds(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        let end = pending.indexOf('\n\n');
        while (end !== -1) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          controller.enqueue(encoder.encode(`${withId(block)}\n\n`));
          end = pending.indexOf('\n\n');
        }
      },
      flush(controller) {
        if (pending) controller.enqueue(encoder.encode(pending));
      },
    }),
  );
}

function withId(block: string): string {
  if (!block.startsWith('event: next\ndata: ')) return block;
  const id = EVENT_ID.exec(block)?.[1];
  return id ? `event: next\nid: ${id}\n${block.slice('event: next\n'.length)}` : block;
}
