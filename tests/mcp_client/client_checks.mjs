// What an MCP client expects of krino, run over any transport: the official TypeScript SDK's
// Client drives a real krino server (stdio_client_test.mjs, http_client_test.mjs). Each check
// opens its own session, so one failing leaves the others meaningful.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ErrorCode, ListPromptsResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

// Arguments that make each tool succeed on the text plugin. A tool krino lists that is missing
// here is still called (with no arguments) and must answer a result, never hang or fail the
// protocol; add it here to check that it succeeds.
const datasets = process.env.KRINO_DATASETS;
if (!datasets) throw new Error('set KRINO_DATASETS to the repository\'s datasets folder');
const capitals = join(datasets, 'capitals.jsonl');

export const kGoodArguments = {
  list_evaluators: {},
  describe_evaluator: { name: 'exact_match' },
  run_evaluation: { dataset_path: capitals, project: 'sdk-every-tool' },
  evaluate: { evaluator: 'exact_match', test_cases: [{ inputs: 'q', actualOutputs: 'a', expectedOutputs: 'a' }] },
  list_experiments: {},
};

// A replayed dataset of `count` rows, long enough that a cancellation arrives while it runs.
function bigDataset(count) {
  const dir = mkdtempSync(join(tmpdir(), 'krino-sdk-'));
  const path = join(dir, 'big.jsonl');
  const rows = [];
  for (let i = 0; i < count; ++i) rows.push(JSON.stringify({ id: `r${i}`, input: `q${i}`, expectedOutput: 'a', actualOutput: 'a' }));
  writeFileSync(path, rows.join('\n') + '\n');
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function withClient(makeTransport, body) {
  const client = new Client({ name: 'krino-sdk-test', version: '1.0.0' });
  await client.connect(makeTransport());
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

function textOf(result) {
  return result.content.filter((block) => block.type === 'text').map((block) => block.text).join('\n');
}

export function defineClientChecks(makeTransport) {
  test('initialize negotiates 2025-11-25 and names krino', async () => {
    await withClient(makeTransport, async (client) => {
      assert.equal(client.getServerVersion().name, 'krino');
      assert.ok(client.getServerVersion().version.length > 0);
      assert.deepEqual(client.getServerCapabilities().tools, {});
      assert.match(client.getInstructions() ?? '', /krino/);
      await client.ping();
    });
  });

  test('tools/list gives every tool with its input and output schema', async () => {
    await withClient(makeTransport, async (client) => {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      for (const name of Object.keys(kGoodArguments)) assert.ok(names.includes(name), `${name} in ${names}`);
      for (const tool of tools) {
        assert.equal(tool.inputSchema.type, 'object', tool.name);
        assert.equal(tool.outputSchema?.type, 'object', tool.name);
        assert.ok(tool.description.length > 0, tool.name);
      }
    });
  });

  test('every tool answers a result, and the known ones succeed with structured content', async () => {
    await withClient(makeTransport, async (client) => {
      const { tools } = await client.listTools();  // the SDK checks structuredContent against outputSchema
      for (const tool of tools) {
        const known = Object.hasOwn(kGoodArguments, tool.name);
        const result = await client.callTool({ name: tool.name, arguments: known ? kGoodArguments[tool.name] : {} });
        assert.ok(Array.isArray(result.content) && result.content.length > 0, tool.name);
        if (!known) continue;
        assert.notEqual(result.isError, true, `${tool.name}: ${textOf(result)}`);
        assert.equal(typeof result.structuredContent, 'object', tool.name);
        assert.deepEqual(JSON.parse(textOf(result)), result.structuredContent, tool.name);
      }
    });
  });

  test('list_evaluators and describe_evaluator read the plugins', async () => {
    await withClient(makeTransport, async (client) => {
      const listed = await client.callTool({ name: 'list_evaluators', arguments: {} });
      const exact = listed.structuredContent.evaluators.find((e) => e.id === 'krino.exact_match');
      assert.equal(exact?.plugin, 'krino.text');
      const described = await client.callTool({ name: 'describe_evaluator', arguments: { name: 'exact_match' } });
      assert.equal(described.structuredContent.id, 'krino.exact_match');
      assert.equal(described.structuredContent.defaults.threshold, 1);
      assert.ok('ignore_case' in described.structuredContent.options_schema.properties);
    });
  });

  test('bad arguments and unknown evaluators are tool errors; the session goes on', async () => {
    await withClient(makeTransport, async (client) => {
      const wrongType = await client.callTool({ name: 'describe_evaluator', arguments: { name: 42 } });
      assert.equal(wrongType.isError, true);
      assert.match(textOf(wrongType), /name/);
      const missing = await client.callTool({ name: 'describe_evaluator', arguments: {} });
      assert.equal(missing.isError, true);
      const unknown = await client.callTool({ name: 'describe_evaluator', arguments: { name: 'no_such_evaluator' } });
      assert.equal(unknown.isError, true);
      assert.match(textOf(unknown), /no_such_evaluator/);
      await client.ping();
    });
  });

  test('an unknown tool and an unserved method are protocol errors with the standard codes', async () => {
    await withClient(makeTransport, async (client) => {
      await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (error) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.code, ErrorCode.InvalidParams);
        return true;
      });
      // client.listPrompts() would refuse locally (krino announces no prompts): sent as is instead.
      await assert.rejects(client.request({ method: 'prompts/list', params: {} }, ListPromptsResultSchema),
        (error) => error instanceof McpError && error.code === ErrorCode.MethodNotFound);
      await client.ping();
    });
  });

  test('run_evaluation reports its progress, in order, before its result', async () => {
    // Enough items that the run lasts: the SDK client hands notifications on a microtask later and
    // answers at once, dropping the progress handler, so notifications that share a read with the
    // answer never reach onprogress. Ten items (the capitals) often fit in that one read.
    const big = bigDataset(20000);
    try {
      await withClient(makeTransport, async (client) => {
        const progress = [];
        const result = await client.callTool(
          { name: 'run_evaluation', arguments: { dataset_path: big.path, project: 'sdk-progress', progress_every: 1000 } },
          CallToolResultSchema,
          { onprogress: (update) => progress.push(update) });
        assert.notEqual(result.isError, true, textOf(result));
        // Some, in order, with the total.
        assert.ok(progress.length >= 1, JSON.stringify(progress));
        for (let i = 1; i < progress.length; ++i) assert.ok(progress[i].progress > progress[i - 1].progress, JSON.stringify(progress));
        assert.equal(progress[0].total, result.structuredContent.summary.totalCount);
      });
    } finally {
      big.remove();
    }
  });

  test('a call aborted by the client is cancelled on the server: its run ends CANCELLED', async () => {
    const big = bigDataset(50000);
    try {
      await withClient(makeTransport, async (client) => {
        const abort = new AbortController();
        const call = client.callTool(
          { name: 'run_evaluation', arguments: { dataset_path: big.path, project: 'sdk-cancel', progress_every: 1 } },
          CallToolResultSchema,
          { signal: abort.signal, onprogress: () => abort.abort('enough') });
        await assert.rejects(call);
        // The stored run shows the server stopped it (the client no longer waits for an answer).
        let status;
        for (let attempt = 0; attempt < 100 && status !== 'CANCELLED'; ++attempt) {
          const listed = await client.callTool({ name: 'list_experiments', arguments: { project: 'sdk-cancel' } });
          status = listed.structuredContent.runs[0]?.status;
          if (status !== 'CANCELLED') await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.equal(status, 'CANCELLED');
        await client.ping();
      });
    } finally {
      big.remove();
    }
  });
}
