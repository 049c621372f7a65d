import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface TestSmtp {
  url: string;
  /** Messages accepted so far, parsed back (attachments, headers, text). */
  messages: ParsedMail[];
  /** While true, every message is refused with a temporary error (451), as a mail server that is in trouble. */
  rejecting: boolean;
  /** Messages refused so far. */
  refused: number;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (a free port) that keeps what it receives, parsed with mailparser. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const box: TestSmtp = { url: '', messages: [], rejecting: false, refused: 0, close: async () => undefined };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      if (box.rejecting) {
        stream.on('end', () => {
          box.refused += 1;
          callback(Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 }));
        });
        stream.resume();
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          box.messages.push(mail);
          callback();
        },
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  box.url = `smtp://127.0.0.1:${port}`;
  box.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return box;
}
