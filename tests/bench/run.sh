#!/usr/bin/env bash
# Builds the release preset and prints every benchmark's figures (issue 2's targets in brackets).
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
bin=build/release/bin
echo "== (a)+(c) pipeline throughput and peak RSS  [>= 150000 cases/s, <= 64 MB at any size]"
"$bin/krino_pipeline_bench" "$@"
echo "== agent workload (issue 3)  [>= 150000 cases/s, < 64 MB]"
"$bin/krino_agent_pipeline_bench"
echo "== the floor under the agent workload: one case read, no evaluator (issue 20)  [share of 13.3 µs a case]"
"$bin/krino_row_read_bench"
echo "== judge concurrency (issue 4)  [within 1.2x of calls x latency / concurrency]"
"$bin/krino_judge_bench"
echo "== http task (issue 5)  [>= 20000 items/s with no latency; within 1.1x of items x latency / parallelism]"
"$bin/krino_http_task_bench"
echo "== exec task: persistent workers vs a process per example, 10000 items (issue 5)  [ratio]"
"$bin/krino_exec_bench"
echo "== evaluators in worker processes (issue 19)  [isolation <= 1.5x in process; python worker >= 20000 cases/s]"
"$bin/krino_evaluator_worker_bench"
echo "== (b) ABI overhead  [<= 10 % for a microsecond-scale evaluator]"
"$bin/krino_abi_overhead_bench"
echo "== results server ingestion, SQLite and PostgreSQL (issue 15)  [>= 30000 / >= 20000 items/s, ~1 KB items]"
"$bin/krino_server_ingest_bench"
"$bin/krino_server_ingest_bench" --postgres
echo "== results server ingestion through krino run's server reporter (issue 15)  [figure, and a run alone beside it]"
"$bin/krino_server_ingest_bench" --reporter
"$bin/krino_server_ingest_bench" --reporter --postgres
echo "== results server pages over two runs of 1,000,000 items (issue 15)  [p95 <= 50 ms a page; server peak RSS <= 256 MB]"
"$bin/krino_server_query_bench"
"$bin/krino_server_query_bench" --postgres
echo "== (d) start-up  [<= 30 ms]"
"$bin/krino_startup_bench"
