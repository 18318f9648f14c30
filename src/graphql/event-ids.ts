// Each subscription result that an event of the bus produced carries that event's id in
// `extensions.eventId`: SSE gives it as the event's `id:` (http/sse-ids.ts), and a client that comes
// back with it (Last-Event-ID) is given the events it missed (events/bus.ts). The id is the last key
// of the result, where the SSE writer finds it without reading the result.
import type { Plugin } from 'graphql-yoga';
import type { Context } from './context.ts';

export function useEventIds(): Plugin<Context> {
  return {
    onSubscribe() {
      return {
        onSubscribeResult({ args }) {
          const position = (args.contextValue as Context).subscription;
          if (!position) return undefined;
          return {
            onNext({ result, setResult }) {
              if (!position.eventId) return;
              const { extensions, ...rest } = result;
              setResult({ ...rest, extensions: { ...extensions, eventId: position.eventId } });
            },
          };
        },
      };
    },
  };
}
