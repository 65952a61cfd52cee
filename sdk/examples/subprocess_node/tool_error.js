#!/usr/bin/env node
// tool_error in JavaScript: the share of the agent's tool calls that succeeded, as krino's built-in
// krino.tool_error scores it (error flag, missing, blank or {"error": ...} results, error_patterns,
// ignore_tools). A krino.evaluatorworker/1 worker (docs/sdk.md) for `use: subprocess`:
//
//   evaluators:
//     - use: subprocess
//       command: [node, sdk/examples/subprocess_node/tool_error.js]
//       error_patterns: ["^Error:"]
//
// Node's standard library only. stdout carries the protocol; console.log goes to stderr.
'use strict';
const out = process.stdout;
console.log = console.error;  // a stray log line must not break the protocol
const line = (document) => JSON.stringify(document) + '\n';

const schema = {
  type: 'object',
  properties: {
    name: {type: 'string', minLength: 1, default: 'tool_error'},
    threshold: {type: 'number', minimum: 0, maximum: 1, default: 1.0},
    tool_calls_key: {type: 'string', minLength: 1, default: 'toolCalls'},
    error_patterns: {type: 'array', items: {type: 'string', minLength: 1}, default: []},
    ignore_tools: {type: 'array', items: {type: 'string', minLength: 1}, default: []},
  },
  additionalProperties: false,
};

const isBlank = (text) => /^[ \t\r\n\f\v]*$/.test(text);
const signalsError = (value) => value !== null && value !== false;

function makeEvaluator(options) {
  const patterns = options.error_patterns.map((p) => ({source: p, regex: new RegExp(p, 'u')}));
  const ignore = new Set(options.ignore_tools);
  const threshold = Number(options.threshold);

  function failure(call) {
    if (call.metadata && call.metadata.isError === true) return ['error_flag'];
    if (!Object.prototype.hasOwnProperty.call(call, 'result')) return ['no_result'];
    const result = typeof call.result === 'string' ? call.result : JSON.stringify(call.result);
    if (isBlank(result)) return ['blank_result'];
    let parsed;
    try { parsed = JSON.parse(result); } catch (e) { parsed = undefined; }
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) &&
        Object.prototype.hasOwnProperty.call(parsed, 'error') && signalsError(parsed.error))
      return ['error_field'];
    for (const pattern of patterns) if (pattern.regex.test(result)) return ['error_pattern', pattern.source];
    return null;
  }

  return (testCase) => {
    const calls = (testCase.actualOutputs || {})[options.tool_calls_key];
    if (calls === undefined || calls === null) {
      const error = new Error(`actualOutputs has no '${options.tool_calls_key}' list`);
      error.code = 'INVALID_ARGUMENT';
      throw error;
    }
    const failed = [];
    const failedText = [];
    let ignored = 0;
    calls.forEach((call, index) => {
      if (ignore.has(call.name)) { ignored += 1; return; }
      const why = failure(call);
      if (!why) return;
      const entry = {index, tool: call.name, rule: why[0]};
      if (why[0] === 'error_pattern') entry.pattern = why[1];
      failed.push(entry);
      failedText.push(`#${index} ${call.name} (${why[0]})`);
    });
    const judged = calls.length - ignored;
    const succeeded = judged - failed.length;
    const score = judged === 0 ? 1.0 : succeeded / judged;
    let reason = calls.length === 0 ? 'no tool calls were made'
               : judged === 0 ? 'every tool call was of an ignored tool'
               : `${succeeded} of ${judged} ${judged === 1 ? 'tool call succeeded' : 'tool calls succeeded'}`;
    if (failedText.length > 0) reason += '; failed: ' + failedText.join(', ');
    if (ignored > 0 && judged > 0) reason += `; ${ignored} ignored`;
    const metadata = {totalCalls: judged};
    if (ignore.size > 0) metadata.ignoredCalls = ignored;
    metadata.failedCount = failed.length;
    metadata.failedCalls = failed;
    return {name: options.name, score, success: score >= threshold, threshold, reason, metadata};
  };
}

out.write(line({
  protocol: 'krino.evaluatorworker/1',
  evaluator: {id: 'example.node.tool_error', name: 'tool_error', version: '1.0.0',
              description: "The share of the agent's tool calls that succeeded (Node).",
              configSchema: schema, capabilities: ['deterministic']},
  // How many requests krino may send before the first answer: they are answered in turn, but a
  // worker that never waits for its next request is several times faster.
  concurrency: 64,
  // Only the tool calls are scored: krino sends only this section, so the rest of the test case
  // (often most of its bytes) is neither sent nor parsed.
  reads: ['actualOutputs'],
}));

let evaluate = null;
function answer(message) {
  if (message.configure !== undefined) {
    try {
      evaluate = makeEvaluator(message.configure);
      return line({configured: true});
    } catch (error) {
      return line({error: {message: String(error.message || error)}});
    }
  }
  try {
    return line({id: message.id, result: evaluate(message.testCase, message.context || {})});
  } catch (error) {
    return line({id: message.id, error: {message: String(error.message || error), code: error.code || 'UNKNOWN'}});
  }
}

// Each chunk of input may hold several requests (krino pipelines them): answer every whole line in
// it. Each answer is written at once (a synchronous write on a pipe), before the next evaluation:
// if that one hangs, krino already has this answer (it blames the oldest unanswered request).
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop();
  for (const text of lines) if (text.trim() !== '') out.write(answer(JSON.parse(text)));
});
