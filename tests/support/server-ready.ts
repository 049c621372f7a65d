import type { ChildProcess } from 'node:child_process';

/**
 * Collects the output of a server child process and waits for its ready line. If the process ends first, or
 * `timeoutMs` passes (the process is then killed), fails with what it printed; `onExit` runs when it ends first.
 * Returns the output so far, for later error messages.
 */
export async function serverReady(
  server: ChildProcess,
  opts: { timeoutMs?: number; onExit?: () => void } = {},
): Promise<() => string> {
  let out = '';
  server.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer =
      opts.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            server.kill('SIGKILL');
            reject(new Error(`server did not start in ${opts.timeoutMs} ms:\n${out}`));
          }, opts.timeoutMs);
    const check = setInterval(() => {
      if (out.includes('IR-HHT Portal ready')) {
        clearInterval(check);
        clearTimeout(timer);
        resolve();
      }
    }, 50);
    server.once('exit', (code) => {
      clearInterval(check);
      clearTimeout(timer);
      opts.onExit?.();
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return () => out;
}
