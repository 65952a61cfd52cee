// The acceptance test of OTLP ingestion (docs/server.md, Traces): every OTLP/JSON fixture is sent
// as JSON to one `krino serve`, and the same spans are sent as protobuf to another by the official
// OpenTelemetry JavaScript exporter (@opentelemetry/exporter-trace-otlp-proto, pinned in
// package.json). Both servers must then show every trace identically: spans, attributes, tree,
// derived input, output and project, and the canonical trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startKrinoServe } from '../mcp_client/krino_serve.mjs';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';

const krino = process.env.KRINO_BINARY;
const sourceDir = process.env.KRINO_SOURCE_DIR;
const fixtures = [
  'tests/fixtures/shared-data/traces/otlp_json_captured/opentelemetry-proto_examples_trace.json',
  'tests/fixtures/traces/otlp-genai/weather_agent.otlp.json',
  'tests/fixtures/traces/otlp-genai/weather_agent.protobuf-json.json',
  'tests/fixtures/traces/otlp-genai/events_and_tool_errors.otlp.json',
  'tests/fixtures/traces/otlp-genai/derived_fields.otlp.json',
].map((path) => join(sourceDir, path));

// A server with the otel extractor, for the canonical trace.
function startServer() {
  return startKrinoServe(krino, [], { plugins: 'otel' });
}

// OTLP/JSON's spellings read back into what an instrumented program holds.
function hexId(id) {
  if (/^[0-9a-fA-F]+$/.test(id) && (id.length === 32 || id.length === 16)) return id.toLowerCase();
  return Buffer.from(id, 'base64').toString('hex');
}
function jsValue(any) {
  if (any == null) return undefined;
  if ('stringValue' in any) return any.stringValue;
  if ('boolValue' in any) return any.boolValue;
  if ('intValue' in any) return Number(any.intValue);
  if ('doubleValue' in any) return Number(any.doubleValue);
  if ('arrayValue' in any) return (any.arrayValue.values ?? []).map(jsValue);
  if ('kvlistValue' in any) return jsAttributes(any.kvlistValue.values);
  if ('bytesValue' in any) return new Uint8Array(Buffer.from(any.bytesValue, 'base64'));
  return undefined;
}
function jsAttributes(list) {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, jsValue(kv.value)]));
}
function hrTime(nanos) {
  const n = BigInt(nanos ?? 0);
  return [Number(n / 1000000000n), Number(n % 1000000000n)];
}
const kinds = ['SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER'];
const codes = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];
const enumNumber = (value, names) => (typeof value === 'string' ? names.indexOf(value) : (value ?? 0));

// The ReadableSpans an SDK would hand its exporter for one OTLP/JSON export.
function readableSpans(exportJson) {
  const spans = [];
  for (const resourceSpans of exportJson.resourceSpans ?? []) {
    const resource = resourceFromAttributes(jsAttributes(resourceSpans.resource?.attributes));
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      const scope = { name: scopeSpans.scope?.name ?? '', version: scopeSpans.scope?.version };
      for (const span of scopeSpans.spans ?? []) {
        const traceId = hexId(span.traceId);
        const spanId = hexId(span.spanId);
        const kind = enumNumber(span.kind, kinds);
        spans.push({
          name: span.name,
          kind: kind === 0 ? undefined : kind - 1,  // the API's SpanKind has no "unspecified"
          spanContext: () => ({ traceId, spanId, traceFlags: 1 }),
          parentSpanContext: span.parentSpanId ? { traceId, spanId: hexId(span.parentSpanId), traceFlags: 1 } : undefined,
          startTime: hrTime(span.startTimeUnixNano),
          endTime: hrTime(span.endTimeUnixNano),
          status: { code: enumNumber(span.status?.code, codes), message: span.status?.message },
          attributes: jsAttributes(span.attributes),
          links: [],
          events: (span.events ?? []).map((event) => ({
            name: event.name, time: hrTime(event.timeUnixNano), attributes: jsAttributes(event.attributes) })),
          duration: [0, 0],
          ended: true,
          resource,
          instrumentationScope: scope,
          droppedAttributesCount: 0,
          droppedEventsCount: 0,
          droppedLinksCount: 0,
        });
      }
    }
  }
  return spans;
}

async function getJson(url) {
  const response = await fetch(url);
  assert.equal(response.status, 200, url);
  return response.json();
}

test('JSON fixtures and the same spans from the protobuf exporter are stored identically', async () => {
  const byJson = await startServer();
  const byExporter = await startServer();
  try {
    const exporter = new OTLPTraceExporter({ url: `${byExporter.base}/v1/traces` });
    for (const path of fixtures) {
      const text = readFileSync(path, 'utf8');
      const posted = await fetch(`${byJson.base}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });
      assert.equal(posted.status, 200, path);
      assert.equal((await posted.json()).rejectedSpans, 0, path);
      const result = await new Promise((resolve) => exporter.export(readableSpans(JSON.parse(text)), resolve));
      assert.equal(result.code, 0, `${path}: ${result.error}`);  // ExportResultCode.SUCCESS
    }
    await exporter.shutdown();
    const listed = await getJson(`${byJson.base}/api/v1/traces?limit=500`);
    const listedByExporter = await getJson(`${byExporter.base}/api/v1/traces?limit=500`);
    assert.equal(listed.traces.length, 4);  // the weather agent's two spellings are one trace
    assert.deepEqual(listedByExporter.traces.map((t) => t.traceId), listed.traces.map((t) => t.traceId));
    for (const { traceId } of listed.traces) {
      const fromJson = await getJson(`${byJson.base}/api/v1/traces/${traceId}`);
      const fromProtobuf = await getJson(`${byExporter.base}/api/v1/traces/${traceId}`);
      delete fromJson.receivedAtMs;
      delete fromProtobuf.receivedAtMs;
      assert.deepEqual(fromProtobuf, fromJson, traceId);
      assert.ok(fromJson.spans.length > 0);
    }
    const agent = await getJson(`${byExporter.base}/api/v1/traces/4bf92f3577b34da6a3ce929d0e0e4736`);
    assert.equal(agent.project, 'weather-bot');
    assert.equal(agent.canonicalTrace.toolCalls[0].name, 'get_weather');
  } finally {
    await byJson.stop();
    await byExporter.stop();
  }
});
