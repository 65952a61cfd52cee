"""A krino evaluator worker in Python, standard library only: krino.evaluatorworker/1 over stdin
and stdout (docs/sdk.md, "Evaluators in worker processes").

    from krino_worker import serve
    serve(evaluator={"id": "acme.length", "name": "length", "configSchema": {...}},
          create=lambda options: MyEvaluator(options))

`create(options)` gets the options krino sends with `configure` (the schema's defaults filled in)
and returns an object whose `evaluate(test_case, context)` returns a krino.evalresult/1 dict. An
exception it raises (a ValueError for bad input) becomes that item's error; the worker goes on.
stdout carries the protocol only: print() is redirected to stderr, which krino shows in item
errors when the worker fails.
"""
import json
import sys

PROTOCOL = "krino.evaluatorworker/1"


class EvaluationError(Exception):
    """An item error with a status code name ("INVALID_ARGUMENT", ...)."""

    def __init__(self, message, code="UNKNOWN"):
        super().__init__(message)
        self.code = code


def _write(out, document):
    out.write(json.dumps(document, separators=(",", ":"), ensure_ascii=False, allow_nan=False))
    out.write("\n")
    out.flush()


def serve(evaluator, create, concurrency=1, max_workers=None):
    # The protocol's own channel: the real stdout. Everything else printed goes to stderr.
    out = sys.stdout
    sys.stdout = sys.stderr
    handshake = {"protocol": PROTOCOL, "evaluator": evaluator, "concurrency": concurrency}
    if max_workers is not None:
        handshake["maxWorkers"] = max_workers
    _write(out, handshake)
    instance = None
    for line in sys.stdin.buffer:
        # Invalid UTF-8 cannot come from krino (it sends valid JSON); be lenient anyway.
        message = json.loads(line.decode("utf-8", "replace"))
        if "configure" in message:
            try:
                instance = create(message["configure"])
                _write(out, {"configured": True})
            except Exception as error:  # the options were refused: krino stops with this message
                _write(out, {"error": {"message": str(error)}})
            continue
        answer = {"id": message["id"]}
        try:
            answer["result"] = instance.evaluate(message["testCase"], message.get("context", {}))
        except EvaluationError as error:
            answer["error"] = {"message": str(error), "code": error.code}
        except Exception as error:
            answer["error"] = {"message": "%s: %s" % (type(error).__name__, error)}
        _write(out, answer)
