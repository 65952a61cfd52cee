// krino serve's /mcp (Streamable HTTP), driven by the official TypeScript SDK client
// (StreamableHTTPClientTransport): the same checks as over stdio, and the session's end.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { defineClientChecks } from './client_checks.mjs';
import { startKrinoServe } from './krino_serve.mjs';

const krino = process.env.KRINO_BINARY;
if (!krino) throw new Error('set KRINO_BINARY to the krino executable');

const server = await startKrinoServe(krino);
after(async () => assert.equal(await server.stop(), 0));

defineClientChecks(() => new StreamableHTTPClientTransport(server.url));

test('a session ends with DELETE, and its id is refused after', async () => {
  const transport = new StreamableHTTPClientTransport(server.url);
  const client = new Client({ name: 'krino-sdk-test', version: '1.0.0' });
  await client.connect(transport);
  const id = transport.sessionId;
  assert.match(id, /^[0-9a-f]{32}$/);
  await transport.terminateSession();
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  assert.equal(response.status, 404);
  await client.close();
});
