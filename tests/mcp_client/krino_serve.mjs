// `krino serve` as a child process for the Node tests over HTTP (MCP, OTLP): on a free loopback
// port (the system's choice, read back from the line the server logs), with a fresh data directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function startKrinoServe(krino, extraArgs = [], { plugins = 'text,files' } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'krino-serve-'));
  const child = spawn(krino, ['serve', '--listen', '127.0.0.1:0', '--data-dir', dataDir, '--plugins', plugins, ...extraArgs],
    { stdio: ['ignore', 'inherit', 'pipe'] });
  let log = '';
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`krino serve did not start in 20 s:\n${log}`)), 20000);
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
      if (listening) {
        clearTimeout(timer);
        resolve(Number(listening[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`krino serve exited with ${code}:\n${log}`)));
  });
  child.stderr.resume();  // the access log, unread from now on
  return {
    base: `http://127.0.0.1:${port}`,
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async stop() {
      const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      const code = await exited;
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
