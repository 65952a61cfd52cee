// krino mcp over stdio, driven by the official TypeScript SDK client (StdioClientTransport spawns
// the real binary). KRINO_BINARY names it; CTest sets it.
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { defineClientChecks } from './client_checks.mjs';

const krino = process.env.KRINO_BINARY;
if (!krino) throw new Error('set KRINO_BINARY to the krino executable');

defineClientChecks(() => new StdioClientTransport({ command: krino, args: ['mcp', '--plugins', 'text'], stderr: 'inherit' }));
