/** The server's own lines on stdout/stderr; no imports, so the first thing a start does is cheap. */
export type LogLine = (line: string) => void;

/** Prints one clear line and exits: bad configuration and unreachable databases never show a stack trace. */
export function fail(message: string): never {
  process.stderr.write(`IR-HHT Portal cannot start: ${message}\n`);
  process.exit(1);
}

export const logLine: LogLine = (line) => {
  process.stdout.write(`${line}\n`);
};
