// The part of Garmin's FIT SDK (JavaScript, untyped) that Milepost uses: decoding, and encoding in tests.
declare module '@garmin/fitsdk' {
  // biome-ignore lint/complexity/noStaticOnlyClass: the SDK exports it so
  export class Stream {
    static fromByteArray(bytes: number[] | Uint8Array): Stream;
    static fromBuffer(buffer: Buffer): Stream;
  }
  export interface DecodeResult {
    messages: Record<string, Array<Record<string, unknown>> | undefined>;
    errors: Error[];
  }
  export class Decoder {
    constructor(stream: Stream);
    isFIT(): boolean;
    checkIntegrity(): boolean;
    read(options?: {
      mesgListener?: (mesgNum: number, message: Record<string, unknown>) => void;
      expandSubFields?: boolean;
      expandComponents?: boolean;
      applyScaleAndOffset?: boolean;
      convertTypesToStrings?: boolean;
      convertDateTimesToDates?: boolean;
      includeUnknownData?: boolean;
      mergeHeartRates?: boolean;
    }): DecodeResult;
  }
  export class Encoder {
    constructor(options?: { fieldDescriptions?: unknown });
    onMesg(mesgNum: number, message: Record<string, unknown>): this;
    writeMesg(message: Record<string, unknown> & { mesgNum: number }): this;
    close(): Uint8Array;
  }
  export const Profile: {
    MesgNum: Record<string, number>;
  };
  export const Utils: {
    convertDateToDateTime(date: Date): number;
  };
}
