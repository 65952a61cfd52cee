// What the browser test looks at: a real `krino serve` (SQLite, in a temporary directory) filled by
// two real `krino run`s of one experiment whose task is a small program (exec), so the runs have
// tokens, cost (one item unpriced) and latency, tool calls, an item error, a hostile item, and a regression between them.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CITIES = [
  ['France', 'Paris'], ['Germany', 'Berlin'], ['Italy', 'Rome'], ['Spain', 'Madrid'], ['Portugal', 'Lisbon'],
  ['Greece', 'Athens'], ['Poland', 'Warsaw'], ['Austria', 'Vienna'], ['Hungary', 'Budapest'], ['Czechia', 'Prague'],
  ['Sweden', 'Stockholm'], ['Norway', 'Oslo'], ['Finland', 'Helsinki'], ['Denmark', 'Copenhagen'], ['Ireland', 'Dublin'],
  ['Belgium', 'Brussels'], ['Netherlands', 'Amsterdam'], ['Switzerland', 'Bern'], ['Japan', 'Tokyo'], ['Kenya', 'Nairobi'],
  ['Peru', 'Lima'], ['Chile', 'Santiago'], ['Egypt', 'Cairo'], ['India', 'New Delhi'], ['Canada', 'Ottawa'],
  ['Australia', 'Canberra'], ['Brazil', 'Brasília'], ['Mexico', 'Mexico City'], ['Turkey', 'Ankara'], ['Vietnam', 'Hanoi'],
];

// The hostile item: its input, expected and actual outputs are markup that would run script if the
// page ever put text into HTML.
export const HOSTILE_OUTPUT = '<img src=x onerror="window.__krinoXss=1">';
export const HOSTILE_INPUT = '<script>window.__krinoXss=2</script> what is this?';

const AGENT = `import json, os, sys
example = json.load(sys.stdin)
meta = example.get("metadata") or {}
variant = os.environ.get("KRINO_UI_VARIANT", "a")
if meta.get("explode"):
    sys.stderr.write("the agent failed on purpose\\n")
    sys.exit(3)
answer = meta["answer"]
if variant == "b" and meta.get("regresses"):
    answer = "I do not know"
if variant == "b" and meta.get("improves"):
    answer = meta["fixed"]
outputs = {"output": answer}
if meta.get("tools"):
    outputs["toolCalls"] = [{"name": "lookup_capital", "arguments": {"country": meta["country"]}}]
question = example["inputs"]["input"]
cost = None if meta.get("unpriced") else (0.000125 if variant == "a" else 0.0001)
print(json.dumps({"actualOutputs": outputs, "metrics": {"tokensIn": 40 + len(question), "tokensOut": len(answer), "costUsd": cost}}))
`;

export function makeWorkspace() {
  const dir = mkdtempSync(join(tmpdir(), 'krino-ui-'));
  const rows = [];
  CITIES.forEach(([country, city], i) => {
    const metadata = { country, answer: i % 10 === 3 ? city.toLowerCase() : city, tools: i % 4 === 0 };
    if (i % 6 === 1) metadata.regresses = true;
    if (i % 10 === 3) { metadata.improves = true; metadata.fixed = city; }
    if (i === 5) metadata.unpriced = true;  // tokens but no cost: the run is partly priced
    rows.push({ id: `c${String(i).padStart(2, '0')}`, input: `What is the capital of ${country}?`, expectedOutput: city, metadata });
  });
  rows.push({ id: 'hostile', input: HOSTILE_INPUT, expectedOutput: HOSTILE_OUTPUT, metadata: { answer: HOSTILE_OUTPUT } });
  rows.push({ id: 'broken', input: 'This one makes the agent fail', expectedOutput: 'x', metadata: { explode: true } });
  writeFileSync(join(dir, 'data.jsonl'), `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
  writeFileSync(join(dir, 'agent.py'), AGENT);
  return dir;
}

export function experimentFile(dir, serverUrl) {
  const file = join(dir, 'capitals.yaml');
  writeFileSync(file, `name: capitals
dataset: ${join(dir, 'data.jsonl')}
task: {kind: exec, command: [python3, agent.py]}
evaluators:
  - exact_match
  - {exact_match: {name: loose, ignore_case: true, threshold: 0.5}}
  - {contains: {name: mentions_city, values: [a, e], mode: any}}
min_pass_rate: 0
reporters:
  - server: {url: "${serverUrl}", project: geography}
`);
  return file;
}

function collect(child) {
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk) => { out.stdout += chunk; });
  child.stderr?.on('data', (chunk) => { out.stderr += chunk; });
  return out;
}

// `krino serve` on a port the system picks; resolves once it printed where it listens.
// `env`: variables added to the server's environment (KRINO_ENCRYPTION_KEY for inline LLM keys).
export function startServe(krino, dataDir, extra = [], env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(krino, ['serve', '--listen', '127.0.0.1:0', '--data-dir', dataDir, ...extra],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let text = '';
    const timer = setTimeout(() => reject(new Error(`krino serve did not start:\n${text}`)), 20000);
    child.stderr.on('data', (chunk) => {
      text += chunk;
      const found = /listening on (http:\/\/[^\s,]+)/.exec(text);
      if (found && !child.url) {
        child.url = found[1];
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`krino serve exited with ${code}:\n${text}`)));
  });
}

// `krino run` reporting to the server; resolves with the run's id on the server.
export function runExperiment(krino, file, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(krino, ['run', file], { cwd: file.replace(/\/[^/]*$/, ''), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = collect(child);
    child.on('exit', (code) => {
      const found = /server reporter: run ([^:\s]+)/.exec(out.stderr);
      if (code !== 0 || !found) reject(new Error(`krino run exited with ${code}:\n${out.stderr}`));
      else resolve(found[1]);
    });
  });
}
