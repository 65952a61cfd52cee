#!/usr/bin/env bash
# The examples' optional reporting (ReportingEnvironment, Reporting): with KRINO_SERVER_URL and
# KRINO_PROJECT set, each test suite's run appears on a real `krino serve` (SQLite in a scratch
# folder), one item per example with the recorded answer and eval result; the known miss is a
# failed item. Without KRINO_SERVER_URL nothing is reported (examples_test.sh runs them so).
# Usage: examples_server_test.sh KRINO GTEST_BINARY BOOST_TEST_BINARY WORK_DIR
set -euo pipefail
krino=$1
gtest_binary=$2
boost_binary=$3
work=$4
die() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work/data"

"$krino" serve --listen 127.0.0.1:0 --data-dir "$work/data" >"$work/serve.txt" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
url=
for _ in $(seq 100); do
    url=$(sed -n 's/^krino serve: listening on \(http:[^,]*\),.*/\1/p' "$work/serve.txt")
    [[ -n $url ]] && break
    sleep 0.1
done
[[ -n $url ]] || { cat "$work/serve.txt"; die "krino serve did not start"; }

export KRINO_SERVER_URL=$url KRINO_PROJECT=examples
unset KRINO_API_KEY
status=0
"$gtest_binary" >"$work/gtest.txt" 2>&1 || status=$?
[[ $status -eq 1 ]] || { cat "$work/gtest.txt"; die "gtest: exit status $status, expected 1 (the known miss)"; }
status=0
"$boost_binary" --color_output=no >"$work/boost.txt" 2>&1 || status=$?
[[ $status -ne 0 ]] || { cat "$work/boost.txt"; die "boost: exit status 0 despite the known miss"; }
grep -q 'reporting .* failed' "$work/gtest.txt" "$work/boost.txt" && die "reporting failed: $(grep 'reporting' "$work"/*.txt)"

# What the server holds: per suite, one finished run of 3 items, 2 passed, the miss with its answer.
python3 - "$url" <<'PY' || die "the server does not hold the runs the examples reported"
import json, sys, urllib.request
url = sys.argv[1]
def get(path):
    with urllib.request.urlopen(url + path) as response:
        return json.load(response)
experiments = {e["name"]: e for e in get("/api/v1/projects/examples/experiments")}
for suite in ("Dataset/CapitalsTest", "answers"):
    assert suite in experiments, f"no experiment {suite!r}: {sorted(experiments)}"
    latest = experiments[suite]["latestRun"]
    assert latest["status"] == "SUCCESS", latest
    run = get(f"/api/v1/runs/{latest['runId']}?page=0&size=50")
    assert (run["totalItems"], run["passedItems"]) == (3, 2), run
    items = {item["itemId"]: item for item in run["items"]["content"]}
    miss = items["cap-03"]
    assert miss["success"] is False, miss
    assert miss["actualOutputs"] == {"output": "Sydney"}, miss
    assert miss["expectedOutputs"] == {"output": "Canberra"}, miss
    assert miss["evalResults"][0]["name"] == "exact_match" and miss["evalResults"][0]["success"] is False, miss
    assert items["cap-01"]["success"] is True and items["cap-01"]["evalResults"][0]["score"] == 1.0, items["cap-01"]
    print(f"ok: {suite}: run {run['id']}, {run['passedItems']}/{run['totalItems']} passed")
PY
