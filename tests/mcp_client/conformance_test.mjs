// The MCP conformance suite (@modelcontextprotocol/conformance, its server scenarios) against a
// real krino serve's /mcp. It passes when krino fails exactly the scenarios listed, with reasons,
// in conformance-expected-failures.yaml (docs/mcp.md).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startKrinoServe } from './krino_serve.mjs';

const krino = process.env.KRINO_BINARY;
if (!krino) throw new Error('set KRINO_BINARY to the krino executable');
const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const suite = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');

const server = await startKrinoServe(krino);
const results = mkdtempSync(join(tmpdir(), 'krino-mcp-conformance-'));
let code;
try {
  code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [suite, 'server', '--url', server.url.href,
      '--expected-failures', join(here, 'conformance-expected-failures.yaml'), '--output-dir', results], { stdio: 'inherit' });
    child.on('exit', (exitCode, signal) => resolve(signal ? 1 : exitCode));
  });
} finally {
  const stopped = await server.stop();
  rmSync(results, { recursive: true, force: true });
  if (stopped !== 0) {
    console.error(`krino serve exited with ${stopped}`);
    code = 1;
  }
}
// The closing line CTest's log readers look for.
console.log(code === 0 ? 'conformance: baseline matched' : 'conformance: FAILED (see above)');
process.exit(code);
