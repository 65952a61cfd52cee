#!/usr/bin/env python3
"""Server judge throughput: items judged per second by `krino serve` against krino-fake-llm
answering every call after a fixed latency, for several connection concurrencies.

--mode online measures online evaluation of production traces instead: N one-span traces (an input
and an output each) are sent to POST /v1/traces in exports of 500, a TRACE rule on every trace
queues one online_eval job per trace (--online-eval-delay-ms 0), and the clock runs from the first
export to the moment /metrics counts N evaluations written. Each job is one model call held by one
job slot, so the server runs with --job-slots equal to the concurrency (at most 64).

With calls of L seconds and C of them in flight, the ideal is C / L items per second. For each
concurrency the script starts a fake judge and a fresh `krino serve` (SQLite in a temporary directory,
or --postgres URI), reports an ended run of N items, creates an LLM connection with
maxConcurrency C, starts a judge job and times it from the POST to the job's end. The server's user
and system CPU come from wait4 after SIGTERM.

  tests/bench/server_judge_bench.py --krino build/release/bin/krino --fake build/release/bin/krino-fake-llm \
      [--items 400] [--concurrency 4,8,16,32] [--latency-ms 200] [--page-size 50] [--slots 4] [--postgres URI]
      [--mode run|online]
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

KEY = "sk-bench-judge"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def wait_up(port):
    for _ in range(1000):
        try:
            call(port, "GET", "/healthz")
            return
        except OSError:
            time.sleep(0.01)
    raise RuntimeError("krino serve did not start")


def online_written(port):
    """Online evaluations written on this server so far (scored and errors), from /metrics."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/metrics")
    with urllib.request.urlopen(request, timeout=60) as answer:
        text = answer.read().decode()
    written = {}
    for line in text.splitlines():
        for outcome in ("scored", "error"):
            if line.startswith(f'krino_online_evals_total{{outcome="{outcome}"}} '):
                written[outcome] = int(line.rsplit(" ", 1)[1])
    return written.get("scored", 0), written.get("error", 0)


def otlp_export(first, count):
    spans = []
    for t in range(first, first + count):
        spans.append({"traceId": f"{t + 1:032x}", "spanId": f"{1:016x}", "name": "agent",
                      "startTimeUnixNano": str(1700000000000000000 + t), "endTimeUnixNano": str(1700000000000000500 + t),
                      "attributes": [{"key": "input.value", "value": {"stringValue": f"question {t}"}},
                                     {"key": "output.value", "value": {"stringValue": f"answer {t}"}}]})
    return {"resourceSpans": [{"resource": {"attributes": [{"key": "krino.project", "value": {"stringValue": "bench"}}]},
                               "scopeSpans": [{"spans": spans}]}]}


def judge_online(args, port, connection):
    call(port, "POST", "/api/v1/trace-eval-rules",
         {"name": "every trace", "target": "TRACE", "connectionId": connection, "evaluatorName": "helpful",
          "criteria": "Is it helpful?"})
    began = time.monotonic()
    for start in range(0, args.items, 500):
        call(port, "POST", "/v1/traces", otlp_export(start, min(500, args.items - start)))
    while True:
        scored, errors = online_written(port)
        if scored + errors >= args.items:
            break
        time.sleep(0.02)
    wall = time.monotonic() - began
    if scored != args.items:
        raise RuntimeError(f"only {scored} of {args.items} traces scored ({errors} errors)")
    return wall


def measure(args, concurrency):
    scratch = tempfile.mkdtemp(prefix="krino-judge-bench-")
    script = os.path.join(scratch, "script.json")
    with open(script, "w") as f:
        json.dump({"default": {"content": "{\"score\": 1, \"reason\": \"fine\"}"}}, f)
    fake = subprocess.Popen([args.fake, "--port", "0", "--script", script, "--latency-ms", str(args.latency_ms),
                             "--require-key", KEY], stdout=subprocess.PIPE, text=True)
    fake_port = int(fake.stdout.readline().strip().rsplit(":", 1)[1])
    port = free_port()
    database = args.postgres or os.path.join(scratch, "krino.db")
    env = dict(os.environ, BENCH_JUDGE_KEY=KEY)
    slots = min(64, concurrency) if args.mode == "online" else args.slots
    serve = subprocess.Popen([args.krino, "serve", "--listen", f"127.0.0.1:{port}", "--database", database,
                              "--job-poll-ms", "50", "--job-slots", str(slots), "--judge-page-size", str(args.page_size),
                              "--online-eval-delay-ms", "0"],
                             env=env, stderr=subprocess.DEVNULL)
    try:
        wait_up(port)
        if args.mode == "online":
            connection = call(port, "POST", "/api/v1/llm-connections",
                              {"name": f"fake-{concurrency}", "baseUrl": f"http://127.0.0.1:{fake_port}/v1", "model": "judge-mini",
                               "credentialRef": "BENCH_JUDGE_KEY", "maxConcurrency": concurrency})["id"]
            wall = judge_online(args, port, connection)
            return finish(args, serve, fake, scratch, concurrency, wall)
        run = call(port, "POST", "/api/v1/projects/bench/runs", {"experimentName": f"judge-c{concurrency}"})["runId"]
        for start in range(0, args.items, 1000):
            items = [{"inputs": {"input": f"question {i}"}, "actualOutputs": {"output": f"answer {i}"}, "success": True}
                     for i in range(start, min(args.items, start + 1000))]
            call(port, "POST", f"/api/v1/runs/{run}/items", {"items": items})
        call(port, "PATCH", f"/api/v1/runs/{run}", {"status": "SUCCESS"})
        connection = call(port, "POST", "/api/v1/llm-connections",
                          {"name": f"fake-{concurrency}", "baseUrl": f"http://127.0.0.1:{fake_port}/v1", "model": "judge-mini",
                           "credentialRef": "BENCH_JUDGE_KEY", "maxConcurrency": concurrency})["id"]
        began = time.monotonic()
        call(port, "POST", f"/api/v1/runs/{run}/judge-jobs",
             {"connectionId": connection, "evaluatorName": "helpful", "criteria": "Is it helpful?"})
        while True:
            job = call(port, "GET", f"/api/v1/runs/{run}/judge-jobs")[-1]
            if job["finishedAt"] is not None:
                break
            time.sleep(0.02)
        wall = time.monotonic() - began
        if job["itemsScored"] != args.items:
            raise RuntimeError(f"only {job['itemsScored']} of {args.items} items scored: {job}")
    except BaseException:
        stop(serve, fake, scratch)
        raise
    return finish(args, serve, fake, scratch, concurrency, wall)


def stop(serve, fake, scratch):
    serve.send_signal(signal.SIGTERM)
    _, _, usage = os.wait4(serve.pid, 0)
    fake.send_signal(signal.SIGTERM)
    fake.wait()
    shutil.rmtree(scratch, ignore_errors=True)
    return usage


def finish(args, serve, fake, scratch, concurrency, wall):
    usage = stop(serve, fake, scratch)
    ideal = concurrency / (args.latency_ms / 1000.0)
    return wall, args.items / wall, ideal, usage.ru_utime, usage.ru_stime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--krino", required=True)
    parser.add_argument("--fake", required=True)
    parser.add_argument("--items", type=int, default=400)
    parser.add_argument("--concurrency", default="4,8,16,32")
    parser.add_argument("--latency-ms", type=int, default=200)
    parser.add_argument("--page-size", type=int, default=50)
    parser.add_argument("--slots", type=int, default=4)
    parser.add_argument("--postgres", default="")
    parser.add_argument("--mode", choices=("run", "online"), default="run")
    args = parser.parse_args()
    print("| items | concurrency | ideal (C / latency) | measured | ratio | wall | server user + sys CPU |")
    print("|---|---|---|---|---|---|---|")
    for concurrency in [int(c) for c in args.concurrency.split(",")]:
        wall, rate, ideal, user, system = measure(args, concurrency)
        print(f"| {args.items} | {concurrency} | {ideal:.1f} items/s | {rate:.1f} items/s | {rate / ideal:.2f} | {wall:.2f} s | "
              f"{user:.2f} + {system:.2f} s |", flush=True)


if __name__ == "__main__":
    main()
