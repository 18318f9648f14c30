// FIT files as devices really write them, made readable by Garmin's SDK (fit.ts), which refuses two
// kinds that Strava and Garmin Connect read:
// - files cut short: a watch whose battery died leaves thousands of records, no session message, a
//   header that declares more data than follows (or none at all), and no final CRC;
// - compressed timestamp headers (older ANT-FS watches): a one-byte record header holding the low five
//   bits of the time, which the SDK does not decode.
// normalizeFit walks the records (the file's framing only: each message's size comes from its
// definition), stops at the first record that does not fit or names no definition, writes compressed
// records as ordinary ones carrying their full timestamp (field 253), and frames the result with a
// correct header and CRC. No I/O.

const FIT_CRC_TABLE = [
  0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401, 0xa001, 0x6c00, 0x7800, 0xb401, 0x5000, 0x9c01, 0x8801, 0x4400,
];

/** The FIT protocol's CRC-16 over `bytes`, from `crc`. */
export function fitCrc(bytes: Uint8Array, crc = 0): number {
  for (const byte of bytes) {
    let tmp = FIT_CRC_TABLE[crc & 0xf]!;
    crc = ((crc >> 4) & 0x0fff) ^ tmp ^ FIT_CRC_TABLE[byte & 0xf]!;
    tmp = FIT_CRC_TABLE[crc & 0xf]!;
    crc = ((crc >> 4) & 0x0fff) ^ tmp ^ FIT_CRC_TABLE[(byte >> 4) & 0xf]!;
  }
  return crc;
}

const TIMESTAMP_FIELD = 253;
const UINT32 = 0x86;
/** Base types a field may have (FIT profile); anything else is damage. */
const BASE_TYPES = new Set([0x00, 0x01, 0x02, 0x83, 0x84, 0x85, 0x86, 0x07, 0x88, 0x89, 0x0a, 0x8b, 0x8c, 0x0d, 0x8e, 0x8f, 0x90]);

interface Definition {
  /** The definition message as read (header byte first). */
  bytes: Uint8Array;
  littleEndian: boolean;
  /** Bytes of the regular fields, then of the developer fields, of each data message. */
  fieldBytes: number;
  developerBytes: number;
  /** Where the timestamp (field 253, uint32) sits in a data message, or -1. */
  timestampAt: number;
  /** The same definition with a timestamp field added, for compressed records (built when first needed). */
  timed?: Uint8Array;
}

export interface NormalizedFit {
  bytes: Uint8Array;
  /** What was salvaged, one sentence each; empty when the file only needed its records rewritten. */
  repairs: string[];
  /** Whether the file was rewritten at all (a clean file is given back as it is). */
  rewritten: boolean;
}

/** A growing output that refuses to pass `limit` bytes (a hostile file could make definitions repeat). */
class Output {
  private buffer: Uint8Array;
  length = 0;
  constructor(
    size: number,
    private readonly limit: number,
  ) {
    this.buffer = new Uint8Array(size);
  }
  write(bytes: Uint8Array): boolean {
    if (this.length + bytes.length > this.limit) return false;
    if (this.length + bytes.length > this.buffer.length) {
      const grown = new Uint8Array(Math.min(this.limit, Math.max(this.buffer.length * 2, this.length + bytes.length)));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
    return true;
  }
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

/** Reads a definition message at `at`; null when it does not fit in `end` or is damaged. */
function readDefinition(bytes: Uint8Array, at: number, end: number): { definition: Definition; next: number } | null {
  if (at + 6 > end) return null;
  const header = bytes[at]!;
  const littleEndian = bytes[at + 2] === 0;
  const fields = bytes[at + 5]!;
  let cursor = at + 6;
  let fieldBytes = 0;
  let timestampAt = -1;
  if (cursor + fields * 3 > end) return null;
  for (let i = 0; i < fields; i++, cursor += 3) {
    const [number, size, type] = [bytes[cursor]!, bytes[cursor + 1]!, bytes[cursor + 2]! & 0x9f];
    if (!BASE_TYPES.has(type) || size === 0) return null;
    if (number === TIMESTAMP_FIELD && size === 4) timestampAt = fieldBytes;
    fieldBytes += size;
  }
  let developerBytes = 0;
  if (header & 0x20) {
    if (cursor + 1 > end) return null;
    const developerFields = bytes[cursor]!;
    cursor += 1;
    if (cursor + developerFields * 3 > end) return null;
    for (let i = 0; i < developerFields; i++, cursor += 3) developerBytes += bytes[cursor + 1]!;
  }
  return { definition: { bytes: bytes.subarray(at, cursor), littleEndian, fieldBytes, developerBytes, timestampAt }, next: cursor };
}

/** The definition with field 253 (uint32) added after its regular fields, for local message `local`. */
function timedDefinition(definition: Definition, local: number): Uint8Array {
  const original = definition.bytes;
  const fields = original[5]!;
  const regularEnd = 6 + fields * 3;
  const timed = new Uint8Array(original.length + 3);
  timed.set(original.subarray(0, regularEnd));
  timed[0] = (original[0]! & 0x20) | 0x40 | local;
  timed[5] = fields + 1;
  timed.set([TIMESTAMP_FIELD, 4, UINT32], regularEnd);
  timed.set(original.subarray(regularEnd), regularEnd + 3);
  return timed;
}

const uint32 = (bytes: Uint8Array, at: number, littleEndian: boolean) =>
  new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, littleEndian);

const count = (n: number) => n.toLocaleString('en-US');

const TOO_BIG = 'the rewritten FIT file would pass its limit';

/**
 * A walk over a FIT file's records, writing each as the SDK reads it. Each step reads the record at
 * `at` and answers where the next begins, or null to stop there: at the end, at damage (`damagedAt`),
 * or at the cut of a file cut short.
 */
class RecordWalk {
  readonly definitions: Array<Definition | undefined> = [];
  /** Which definition each local message number holds in the output: the original or the timed one. */
  readonly written: Array<Uint8Array | undefined> = [];
  records = 0;
  compressed = 0;
  lastTimestamp: number | null = null;
  damagedAt: number | null = null;

  constructor(
    readonly bytes: Uint8Array,
    readonly end: number,
    /** Whether the file declares all its bytes: then a record running past them is damage, not a cut. */
    readonly whole: boolean,
    readonly out: Output,
  ) {}

  step(at: number): number | null {
    const header = this.bytes[at]!;
    if (header & 0x80) return this.compressedRecord(at, header);
    if (header & 0x40) return this.definitionRecord(at, header);
    return this.dataRecord(at, header);
  }

  /** The definition of local message `local` and its data's size, if the record at `at` fits; null (having noted any damage) if not. */
  private sized(at: number, local: number, needsTime: boolean): { definition: Definition; size: number } | null {
    const definition = this.definitions[local];
    if (!definition || (needsTime && this.lastTimestamp === null)) {
      this.damagedAt = at;
      return null;
    }
    const size = definition.fieldBytes + definition.developerBytes;
    // a record that runs past the bytes there are is the cut of a file cut short, damage in a whole one
    if (at + 1 + size > this.end) {
      if (this.whole) this.damagedAt = at;
      return null;
    }
    return { definition, size };
  }

  private emit(definition: Uint8Array, local: number, data: Uint8Array[]): void {
    if (this.written[local] !== definition) {
      if (!this.out.write(definition)) throw new RangeError(TOO_BIG);
      this.written[local] = definition;
    }
    if (!data.every((part) => this.out.write(part))) throw new RangeError(TOO_BIG);
  }

  /** A compressed timestamp header: local message 0-3, the low five bits of the time; written with its full time. */
  private compressedRecord(at: number, header: number): number | null {
    const local = (header >> 5) & 0x03;
    const found = this.sized(at, local, true);
    if (!found) return null;
    const { definition, size } = found;
    const last = this.lastTimestamp!;
    const offset = header & 0x1f;
    let timestamp: number = ((last & ~0x1f) >>> 0) + offset;
    if (offset < (last & 0x1f)) timestamp += 0x20;
    this.lastTimestamp = timestamp >>> 0;
    const data = this.bytes.subarray(at + 1, at + 1 + size);
    if (definition.timestampAt >= 0) {
      this.emit(definition.bytes, local, [Uint8Array.of(local), data]);
    } else {
      definition.timed ??= timedDefinition(definition, local);
      const stamp = new Uint8Array(4);
      new DataView(stamp.buffer).setUint32(0, this.lastTimestamp, definition.littleEndian);
      this.emit(definition.timed, local, [
        Uint8Array.of(local),
        data.subarray(0, definition.fieldBytes),
        stamp,
        data.subarray(definition.fieldBytes),
      ]);
    }
    this.compressed += 1;
    this.records += 1;
    return at + 1 + size;
  }

  private definitionRecord(at: number, header: number): number | null {
    const read = readDefinition(this.bytes, at, this.end);
    if (!read) {
      // a definition is at most 1 + 5 + 2 × (1 + 255 × 3) bytes: one that fits in none left was cut
      if (this.whole || this.end - at > 1 + 5 + 2 * (1 + 255 * 3)) this.damagedAt = at;
      return null;
    }
    const local = header & 0x0f;
    this.definitions[local] = read.definition;
    if (!this.out.write(read.definition.bytes)) throw new RangeError(TOO_BIG);
    this.written[local] = read.definition.bytes;
    return read.next;
  }

  private dataRecord(at: number, header: number): number | null {
    const local = header & 0x0f;
    const found = this.sized(at, local, false);
    if (!found) return null;
    const { definition, size } = found;
    if (definition.timestampAt >= 0) this.lastTimestamp = uint32(this.bytes, at + 1 + definition.timestampAt, definition.littleEndian);
    this.emit(definition.bytes, local, [this.bytes.subarray(at, at + 1 + size)]);
    this.records += 1;
    return at + 1 + size;
  }
}

/** The rewritten file: a 14-byte header (with the protocol and profile versions of `original`), the records, and the CRC over both. */
function framed(records: Uint8Array, original: Uint8Array): Uint8Array {
  const dataSize = records.length - 14;
  records.set([14, original[1]!, original[2]!, original[3]!], 0);
  new DataView(records.buffer, records.byteOffset + 4, 4).setUint32(0, dataSize, true);
  records.set([0x2e, 0x46, 0x49, 0x54], 8);
  const headerCrc = fitCrc(records.subarray(0, 12));
  records.set([headerCrc & 0xff, headerCrc >> 8], 12);
  const crc = fitCrc(records);
  const result = new Uint8Array(records.length + 2);
  result.set(records);
  result.set([crc & 0xff, crc >> 8], records.length);
  return result;
}

/**
 * The file's records, framed so that the SDK reads them: given back as it is when it is whole and has
 * no compressed timestamp headers. `limit` bounds the rewritten file.
 */
export function normalizeFit(bytes: Uint8Array, limit: number): NormalizedFit {
  const headerSize = bytes[0]!;
  const declared = new DataView(bytes.buffer, bytes.byteOffset + 4, 4).getUint32(0, true);
  const declaredEnd = headerSize + declared;
  const whole = declared > 0 && declaredEnd + 2 <= bytes.length;
  // a file cut short declares more than follows, or nothing (written before the device closed it)
  const end = whole ? declaredEnd : bytes.length;
  const out = new Output(Math.min(limit, bytes.length + 1024), limit);
  out.write(new Uint8Array(14));
  const walk = new RecordWalk(bytes, end, whole, out);
  let at: number | null = headerSize;
  while (at !== null && at < end) at = walk.step(at);
  const { damagedAt, records } = walk;
  const crcMatches = whole && damagedAt === null && fitCrc(bytes.subarray(0, declaredEnd + 2)) === 0;
  if (crcMatches && walk.compressed === 0) return { bytes, repairs: [], rewritten: false };

  const repairs: string[] = [];
  if (damagedAt !== null) {
    repairs.push(
      `the file is damaged at byte ${count(damagedAt)} of ${count(bytes.length)}: the ${count(records)} records before it were read`,
    );
  } else if (!whole) {
    repairs.push(
      `the file was cut short (${declared > 0 ? `${count(bytes.length)} of the ${count(declaredEnd + 2)} bytes it declares` : 'it was never closed'}): its ${count(records)} records were read`,
    );
  } else if (!crcMatches) {
    repairs.push(`the file's checksum does not match: its ${count(records)} records were read as they are`);
  }
  return { bytes: framed(out.bytes(), bytes), repairs, rewritten: true };
}
