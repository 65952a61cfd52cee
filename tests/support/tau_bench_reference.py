#!/usr/bin/env python3
"""An independent reimplementation, in plain Python, of what datasets/tau-bench-airline.yaml scores,
to check krino's results for all 200 trajectories (not only the five the e2e test pins).

    krino run datasets/tau-bench-airline.yaml --set 'reporters=[{json: {path: /tmp/tau.jsonl}}]'
    tests/support/tau_bench_reference.py /tmp/tau.jsonl

It binds tool results per assistant turn, and recomputes tool_trajectory (in_order: longest common
subsequence of exactly matching calls over the expected count, 1 with no expected call, numbers by value), tool_error
(^Error:, blank and missing results, an "error" field; think calls ignored), tool_efficiency (distinct
calls over all) and action_loop_detection (OpenJudge's word-set similarity of signatures built with
Python's own str() of the arguments, which is what OpenJudge uses). Prints every difference.
"""
import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "fixtures/shared-data/tau-bench/tau1_historical_gpt-4o-airline.json"


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) == type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if type(a) != type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def calls_with_results(traj):
    calls, window = [], None
    for index, message in enumerate(traj):
        if message["role"] == "assistant":
            window = index
            for call in message.get("tool_calls") or []:
                calls.append({"id": call["id"], "name": call["function"]["name"],
                              "args": json.loads(call["function"]["arguments"]), "turn": index, "result": None})
        elif message["role"] == "tool":
            for call in calls:
                if call["turn"] == window and call["id"] == message["tool_call_id"] and call["result"] is None:
                    call["result"] = message["content"]
                    break
    return calls


def trajectory(calls, expected):
    # in_order_denominator: expected: nothing required is nothing missing; extra calls are free.
    if not expected:
        return 1.0
    lcs = [[0] * (len(expected) + 1) for _ in range(len(calls) + 1)]
    for i, call in enumerate(calls):
        for j, want in enumerate(expected):
            match = call["name"] == want["name"] and same(call["args"], want["kwargs"])
            lcs[i + 1][j + 1] = lcs[i][j] + 1 if match else max(lcs[i][j + 1], lcs[i + 1][j])
    return lcs[-1][-1] / len(expected)


def tool_error(calls):
    judged = [c for c in calls if c["name"] != "think"]
    if not judged:
        return 1.0
    failed = 0
    for call in judged:
        result = call["result"]
        if result is None or not result.strip():
            failed += 1
            continue
        try:
            parsed = json.loads(result)
            flag = parsed.get("error") if isinstance(parsed, dict) else None
            if flag is not None and flag is not False:
                failed += 1
                continue
        except ValueError:
            pass
        failed += result.startswith("Error:")
    return (len(judged) - failed) / len(judged)


def efficiency(calls):
    if not calls:
        return 1.0
    distinct = []
    for call in calls:
        if not any(d["name"] == call["name"] and same(d["args"], call["args"]) for d in distinct):
            distinct.append(call)
    return len(distinct) / len(calls)


def loops(traj):
    waiting, actions = {}, []
    for message in traj:
        if message["role"] == "assistant":
            for call in message.get("tool_calls") or []:
                waiting[call["id"]] = call
        elif message["role"] == "tool":
            actions.append(waiting.pop(message["tool_call_id"]))
    def signature(call):
        args = json.loads(call["function"]["arguments"])
        return call["function"]["name"] + ": " + ", ".join(f"{k}: {v}" for k, v in sorted(args.items()))
    words = [set(signature(a).lower().split()) for a in actions]
    if len(words) < 2:
        return 1.0
    pairs = [(a, b) for i, a in enumerate(words) for b in words[i + 1:]]
    alike = sum(1 for a, b in pairs if a and b and len(a & b) / len(a | b) >= 1.0)
    return 1 - alike / len(pairs)


def main():
    runs = {f"{r['task_id']}-{r['trial']}": r for r in json.loads(DATA.read_text())}
    differences = 0
    for line in Path(sys.argv[1]).read_text().splitlines():
        event = json.loads(line)
        if event["event"] != "item_finished":
            continue
        run = runs[event["id"]]
        calls = calls_with_results(run["traj"])
        expected = {"tool_trajectory": trajectory(calls, run["info"]["task"]["actions"]), "tool_error": tool_error(calls),
                    "tool_efficiency": efficiency(calls), "action_loop_detection": loops(run["traj"])}
        for result in event["results"]:
            if abs(result["score"] - expected[result["name"]]) > 1e-9:
                differences += 1
                print(event["id"], result["name"], "krino", result["score"], "reference", expected[result["name"]])
    print("differences:", differences)


if __name__ == "__main__":
    main()
