// The one way the service reads an uploaded XML document (GPX, TCX): streamed through saxes, a strict
// parser that never expands entities, under bounds that make a hostile document cheap to refuse.
// - A document type declaration is refused outright: no entity expansion (billion laughs), no external
//   entities, before anything is read or fetched.
// - Nesting depth and the number of elements are bounded (saxes resolves namespaces through a chain as
//   long as the nesting: unbounded depth made parsing quadratic).
// - Bytes are bounded whatever the headers say, and text is fed in slices with a turn for the event
//   loop after each, so a 20 MB document never holds it for long.
// Every refusal is a ValidationError on the caller's field.
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { TooLargeError, ValidationError } from './errors.ts';

export interface XmlLimits {
  /** The input field errors name (`gpx`, `file`). */
  field: string;
  maxBytes: number;
  maxDepth: number;
  maxElements: number;
}

export interface XmlHandlers {
  /** An element opens; `depth` is how many elements enclose it (0 for the root). */
  open(local: string, uri: string, tag: SaxesTagNS, depth: number): void;
  /** An element closes, with the text it held directly and its parent's local name. */
  close(local: string, uri: string, text: string, parent: string | undefined): void;
}

/**
 * Attributes one element may carry, and namespace declarations a document may make: saxes checks an
 * element's attributes all at once when its tag closes, and one tag with 1.1 million attributes held
 * the event loop for 6 s (800,000 `xmlns:` declarations, 9 s). GPX and TCX elements carry a handful.
 */
export const MAX_ATTRIBUTES = 64;
export const MAX_NAMESPACE_DECLARATIONS = 256;

/** Text is fed to the parser in slices this long, and the event loop gets a turn between them. */
const SLICE_CHARS = 64 * 1024;

/** The encoding a document declares: a byte-order mark, else the XML declaration, else UTF-8. */
export function sniffEncoding(head: Uint8Array, field = 'gpx'): { encoding: string; bomLength: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  const ascii = String.fromCharCode(...head.subarray(0, 200));
  const declared = /^\s*<\?xml[^>]*\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(ascii)?.[1]?.toLowerCase();
  if (!declared || declared === 'utf-8' || declared === 'utf8') return { encoding: 'utf-8', bomLength: 0 };
  if (['iso-8859-1', 'latin1', 'iso_8859-1', 'windows-1252', 'us-ascii', 'ascii'].includes(declared))
    return { encoding: 'windows-1252', bomLength: 0 };
  throw ValidationError.field(field, `encoding "${declared}" is not supported; send UTF-8 or ISO-8859-1`);
}

const refusal = (limits: XmlLimits, message: string): never => {
  throw ValidationError.field(limits.field, message);
};

/** A parser with the bounds on it and `handlers` wired; `state` counts the elements met and keeps the first error. */
function boundedParser(limits: XmlLimits, handlers: XmlHandlers) {
  const fail = (message: string) => refusal(limits, message);
  // positions cost a fifth of the parse, and errors name the point instead
  const parser = new SaxesParser({ xmlns: true, position: false });
  const state = { elements: 0, error: null as Error | null };
  const stack: string[] = [];
  let text = '';
  let attributes = 0;
  let declarations = 0;
  parser.on('doctype', () => fail('documents with a DOCTYPE are refused (no entity expansion, no external entities)'));
  // counted as they are read, before saxes checks the tag's attributes together
  parser.on('opentagstart', () => {
    attributes = 0;
  });
  parser.on('attribute', (attribute) => {
    if (++attributes > MAX_ATTRIBUTES) fail(`has an element with more than ${MAX_ATTRIBUTES} attributes`);
    const { name } = attribute;
    if ((name === 'xmlns' || name.startsWith('xmlns:')) && ++declarations > MAX_NAMESPACE_DECLARATIONS)
      fail(`declares more than ${MAX_NAMESPACE_DECLARATIONS} namespaces`);
  });
  parser.on('error', (e) => {
    state.error ??= e instanceof ValidationError ? e : ValidationError.field(limits.field, `is not well-formed XML: ${e.message}`);
  });
  parser.on('opentag', (tag) => {
    const { local, uri } = tag as SaxesTagNS;
    if (stack.length >= limits.maxDepth) fail(`nests elements more than ${limits.maxDepth} levels deep`);
    if (++state.elements > limits.maxElements) fail(`has more than ${limits.maxElements} elements`);
    handlers.open(local, uri, tag as SaxesTagNS, stack.length);
    stack.push(local);
    text = '';
  });
  parser.on('text', (t) => {
    text += t;
  });
  parser.on('cdata', (t) => {
    text += t;
  });
  parser.on('closetag', (tag) => {
    const { local, uri } = tag as SaxesTagNS;
    stack.pop();
    handlers.close(local, uri, text, stack[stack.length - 1]);
    text = '';
  });
  return { parser, state };
}

/**
 * A document's text, decoded in the encoding it declares (read from its first bytes), and refused as
 * soon as its bytes pass the bound, however they come (chunked, without a length).
 */
async function* documentText(source: AsyncIterable<Uint8Array> | Uint8Array | string, limits: XmlLimits): AsyncGenerator<string> {
  if (typeof source === 'string') {
    if (Buffer.byteLength(source) > limits.maxBytes) throw new TooLargeError(limits.field, limits.maxBytes);
    yield source.replace(/^\uFEFF/, '');
    return;
  }
  let decoder: TextDecoder | null = null;
  const decode = (body?: Uint8Array) => {
    try {
      // stream mode: a character split across chunks is completed by the next one
      return body ? decoder!.decode(body, { stream: true }) : decoder!.decode();
    } catch {
      return refusal(limits, `is not valid ${decoder!.encoding}`);
    }
  };
  // the encoding is read from the first bytes, so enough of them are gathered before any is decoded
  let head: Uint8Array[] = [];
  let headBytes = 0;
  const start = () => {
    const first = Buffer.concat(head);
    const { encoding, bomLength } = sniffEncoding(first, limits.field);
    decoder = new TextDecoder(encoding, { fatal: true });
    head = [];
    return decode(first.subarray(bomLength));
  };
  let bytes = 0;
  for await (const chunk of source instanceof Uint8Array ? slices(source) : source) {
    bytes += chunk.byteLength;
    if (bytes > limits.maxBytes) throw new TooLargeError(limits.field, limits.maxBytes);
    if (decoder) {
      yield decode(chunk);
      continue;
    }
    head.push(chunk);
    headBytes += chunk.byteLength;
    if (headBytes >= 256) yield start();
  }
  if (!decoder) yield start();
  yield decode();
}

/**
 * Reads a document from a stream of bytes (or its text), calling `handlers` for each element. Resolves
 * once the whole document was read and closed; rejects with the first ValidationError, whether a
 * bound's, the parser's (not well-formed) or one a handler threw.
 */
export async function readXml(
  source: AsyncIterable<Uint8Array> | Uint8Array | string,
  limits: XmlLimits,
  handlers: XmlHandlers,
): Promise<void> {
  const { parser, state } = boundedParser(limits, handlers);
  let leading = true;
  for await (let chunk of documentText(source, limits)) {
    // whitespace before the XML declaration (Strava's TCX files start with ten spaces) is not XML's,
    // but no reader of these files should refuse them for it
    if (leading) {
      chunk = chunk.replace(/^\s+/, '');
      if (chunk === '') continue;
      leading = false;
    }
    for (let at = 0; at < chunk.length; at += SLICE_CHARS) {
      parser.write(chunk.length <= SLICE_CHARS ? chunk : chunk.slice(at, at + SLICE_CHARS));
      if (state.error) throw state.error;
      await yieldToEventLoop();
    }
  }
  if (state.elements === 0 && !state.error) refusal(limits, 'is empty: it holds no XML element');
  parser.close();
  if (state.error) throw state.error;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A whole body (a multipart file) in the slices a network stream would bring. */
function* slices(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += SLICE_CHARS) yield bytes.subarray(at, at + SLICE_CHARS);
}
