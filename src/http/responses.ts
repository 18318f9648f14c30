// The one Response class the server answers with: @whatwg-node/fetch's, which the server adapter writes
// to the socket as it is (a Buffer or string at once, a Node stream piped), where the platform's would
// be copied through a web stream. It takes what the fetch API's Response takes and Node's own bodies
// too, and is typed here, once, as the fetch API's Response the rest of the server handles.
import { Response as AdapterResponse } from '@whatwg-node/fetch';

/** What a response's body may be: the fetch API's bodies, or Node's own (a Buffer, a readable stream). */
export type ResponseBody = BodyInit | Buffer | NodeJS.ReadableStream | null;

/** A response the server adapter sends without copying its body. */
export function makeResponse(body: ResponseBody, init: ResponseInit): Response {
  return new AdapterResponse(body as BodyInit | null, init) as unknown as Response;
}
