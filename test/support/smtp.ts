// A real SMTP server for the mail tests (the smtp-server package, on a port of its own): it accepts
// every mail and keeps it, parsed, for the test to read; `refuse` makes it answer the next ones with an error.
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface MailSink {
  url: string;
  received: ParsedMail[];
  /** Answer the next mails' DATA with this SMTP code (a 4xx is a "try later", a 5xx a refusal); null accepts. */
  refuse(code: number | null): void;
  /** Resolves once `count` mails have arrived in all. */
  waitFor(count: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

export async function startMailSink(): Promise<MailSink> {
  const received: ParsedMail[] = [];
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  let refusal: number | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          if (refusal !== null) return callback(Object.assign(new Error('refused by the test'), { responseCode: refusal }));
          received.push(mail);
          for (const wait of waiting.filter((w) => received.length >= w.count)) wait.resolve();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse: (code) => {
      refusal = code;
    },
    waitFor: (count) =>
      received.length >= count
        ? Promise.resolve(received)
        : new Promise((resolve) => waiting.push({ count, resolve: () => resolve(received) })),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
