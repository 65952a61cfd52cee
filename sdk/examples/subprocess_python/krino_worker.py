"""A krino evaluator worker in Python, standard library only: krino.evaluatorworker/1 over stdin
and stdout (docs/sdk.md, "Evaluators in worker processes").

    from krino_worker import serve
    serve(evaluator={"id": "acme.length", "name": "length", "configSchema": {...}},
          create=lambda options: MyEvaluator(options))

`create(options)` gets the options krino sends with `configure` (the schema's defaults filled in)
and returns an object whose `evaluate(test_case, context)` returns a krino.evalresult/1 dict.
`reads` lists the test-case sections `evaluate` looks at ("inputs", "actualOutputs",
"expectedOutputs", "metadata"): krino then sends only those, and the worker decodes only those
(None: the whole test case). An
exception it raises (a ValueError for bad input) becomes that item's error; the worker goes on.
stdout carries the protocol only: print() is redirected to stderr, which krino shows in item
errors when the worker fails.
"""
import json
import os
import sys

PROTOCOL = "krino.evaluatorworker/1"


class EvaluationError(Exception):
    """An item error with a status code name ("INVALID_ARGUMENT", ...)."""

    def __init__(self, message, code="UNKNOWN"):
        super().__init__(message)
        self.code = code


def _line(document):
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8") + b"\n"


def _lines(fd):
    """Yields lists of whole lines: each list is what had arrived by one read. krino pipelines
    requests, so one read often brings several, and the worker never waits for the next one."""
    rest = b""
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return
        lines = (rest + chunk).split(b"\n")
        rest = lines.pop()
        if lines:
            yield lines


def serve(evaluator, create, concurrency=64, max_workers=None, reads=None):
    # The protocol's own channel: the real stdout. Everything else printed goes to stderr.
    out = sys.stdout.buffer
    sys.stdout = sys.stderr
    # `concurrency`: how many requests krino may send before the first answer. They are answered
    # in turn here; a deep pipeline only saves the worker from waiting for each next request.
    handshake = {"protocol": PROTOCOL, "evaluator": evaluator, "concurrency": concurrency}
    if max_workers is not None:
        handshake["maxWorkers"] = max_workers
    if reads is not None:
        handshake["reads"] = list(reads)
    out.write(_line(handshake))
    out.flush()
    instance = None
    for batch in _lines(sys.stdin.fileno()):
        for line in batch:
            if not line.strip():
                continue
            # Invalid UTF-8 cannot come from krino (it sends valid JSON); be lenient anyway.
            message = json.loads(line.decode("utf-8", "replace"))
            if "configure" in message:
                try:
                    instance = create(message["configure"])
                    out.write(_line({"configured": True}))
                except Exception as error:  # the options were refused: krino stops with this message
                    out.write(_line({"error": {"message": str(error)}}))
                out.flush()
                continue
            answer = {"id": message["id"]}
            try:
                answer["result"] = instance.evaluate(message["testCase"], message.get("context", {}))
            except EvaluationError as error:
                answer["error"] = {"message": str(error), "code": error.code}
            except Exception as error:
                answer["error"] = {"message": "%s: %s" % (type(error).__name__, error)}
            # Each answer goes out before the next evaluation starts: if that one hangs or kills the
            # process, krino must already have this answer (it blames the oldest unanswered request).
            out.write(_line(answer))
            out.flush()
