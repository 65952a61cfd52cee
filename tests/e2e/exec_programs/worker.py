"""A persistent worker for the exec task's end-to-end tests: answers one JSON line per request
line, or misbehaves in a way chosen by inputs.input."""
import json
import os
import sys
import time

for line in sys.stdin:
    request = json.loads(line)
    n = request["example"]["inputs"]["input"]
    reply = {"id": request["id"], "actualOutputs": {"output": n, "score": 1, "pid": os.getpid()},
             "metrics": {"tokensIn": 10, "tokensOut": 20, "costUsd": 0.001}}
    if n == 3:
        sys.stderr.write("worker: cannot handle item 3, exiting\n")
        sys.exit(1)
    if n == 4:
        print("debug: this should have gone to stderr", flush=True)
        continue
    if n == 5:
        time.sleep(30)
    if n == 6:
        reply["id"] = request["id"] + 1000
    if n == 7:
        reply = {"id": request["id"], "error": "the model refused"}
    time.sleep(((20 - n) % 5) * 0.02)
    print(json.dumps(reply), flush=True)
