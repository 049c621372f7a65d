import type { ChildProcess } from 'node:child_process';

/**
 * Collects the output of a server process the bench started and waits for its ready line; if the process ends
 * first, fails with what it printed. Returns the output so far, for later error messages.
 */
export async function serverReady(server: ChildProcess): Promise<() => string> {
  let out = '';
  server.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (out.includes('IR-HHT Portal ready')) {
        clearInterval(check);
        resolve();
      }
    }, 200);
    server.once('exit', (code) => {
      clearInterval(check);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return () => out;
}
