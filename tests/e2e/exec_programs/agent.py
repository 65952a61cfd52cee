"""A per-example program for the exec task's end-to-end tests: reads one krino.example/1 document
on stdin and prints a reply envelope, or misbehaves in a way chosen by inputs.input."""
import json
import os
import signal
import sys
import time

example = json.load(sys.stdin)
n = example["inputs"]["input"]
sys.stderr.write(f"agent: item {n} in {os.getcwd()}\n")
if n == 3:
    sys.stderr.write("agent failed on 3\n")
    sys.exit(3)
if n == 4:
    print("Loading model... done")
    sys.exit(0)
if n == 5:
    time.sleep(30)
if n == 6:
    os.kill(os.getpid(), signal.SIGKILL)
if n == 7:
    sys.stdout.write("{\"output\": \"" + "x" * (4 << 20) + "\"}")
    sys.exit(0)
# Later items finish first, so replies arrive out of dataset order.
time.sleep(((20 - n) % 5) * 0.02)
print(json.dumps({
    "actualOutputs": {"output": n, "score": 1, "id": example.get("id"), "seed": os.environ.get("KRINO_SEED")},
    "usage": {"prompt_tokens": 1000, "completion_tokens": 500},
    "model": "small-model",
}))
