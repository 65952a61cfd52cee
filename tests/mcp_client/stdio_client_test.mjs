// krino mcp over stdio, driven by the official TypeScript SDK client (StdioClientTransport spawns
// the real binary). KRINO_BINARY names it; CTest sets it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { defineClientChecks } from './client_checks.mjs';

const krino = process.env.KRINO_BINARY;
if (!krino) throw new Error('set KRINO_BINARY to the krino executable');

// Runs go to a data directory of the test's own.
const dataDir = mkdtempSync(join(tmpdir(), 'krino-mcp-stdio-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

defineClientChecks(() => new StdioClientTransport({ command: krino, args: ['mcp', '--plugins', 'text,files', '--data-dir', dataDir], stderr: 'inherit' }));
