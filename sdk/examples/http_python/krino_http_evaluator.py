"""A krino evaluator served over HTTP in Python, standard library only: krino.evaluatorworker/1's
documents in HTTP bodies (docs/sdk.md, "Remote evaluators over HTTP"), for `use: http_evaluator`.

    from krino_http_evaluator import serve_http
    serve_http(evaluator={"id": "acme.length", "name": "length", "configSchema": {...}},
               create=lambda options: MyEvaluator(options), port=8099, reads=["actualOutputs"])

GET answers with the handshake. POST carries {"options": {...}, "requests": [{"id", "testCase",
"context"}, ...]} and gets {"answers": [{"id", "result"} or {"id", "error"}, ...]}. `create(options)`
is called once per distinct set of options and returns an object whose
`evaluate(test_case, context)` returns a krino.evalresult/1 dict; an exception it raises becomes
that test case's error and the others of the batch are still scored. `reads` lists the test-case
sections `evaluate` looks at ("inputs", "actualOutputs", "expectedOutputs", "metadata"), as for a
worker process: each request's "testCase" then holds only those (None: the whole test case).
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PROTOCOL = "krino.evaluatorworker/1"


class EvaluationError(Exception):
    """An item error with a status code name ("INVALID_ARGUMENT", ...)."""

    def __init__(self, message, code="UNKNOWN"):
        super().__init__(message)
        self.code = code


def _body(document):
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def answer(instance, request):
    """One request's answer: {"id", "result"} or {"id", "error"}."""
    reply = {"id": request["id"]}
    try:
        reply["result"] = instance.evaluate(request["testCase"], request.get("context", {}))
    except EvaluationError as error:
        reply["error"] = {"message": str(error), "code": error.code}
    except Exception as error:  # any other failure is this test case's error, not the batch's
        reply["error"] = {"message": "%s: %s" % (type(error).__name__, error)}
    return reply


class EvaluatorHandler(BaseHTTPRequestHandler):
    """Serves one evaluator; `server.evaluator` is the handshake's description and
    `server.create(options)` makes an instance. Subclasses may override `answers(message)`."""

    protocol_version = "HTTP/1.1"  # keep-alive: krino reuses its connections
    # The handler writes the head and the body in two writes; with Nagle's algorithm on, the body
    # then waits for the client's delayed ACK of the head (40 ms on Linux) on every request.
    disable_nagle_algorithm = True

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass  # one line per request would cost more than a trivial evaluation

    def send_json(self, status, document, headers=()):
        body = _body(document) if not isinstance(document, bytes) else document
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):  # noqa: N802 (the base class's naming)
        handshake = {"protocol": PROTOCOL, "evaluator": self.server.evaluator}
        if self.server.reads is not None:
            handshake["reads"] = list(self.server.reads)
        self.send_json(200, handshake)

    def read_message(self):
        length = int(self.headers.get("Content-Length", "0"))
        return json.loads(self.rfile.read(length).decode("utf-8"))

    def instance(self, options):
        key = json.dumps(options, sort_keys=True)
        with self.server.lock:
            made = self.server.instances.get(key)
            if made is None:
                made = self.server.instances[key] = self.server.create(options)
        return made

    def answers(self, message):
        instance = self.instance(message.get("options", {}))
        return [answer(instance, request) for request in message["requests"]]

    def do_POST(self):  # noqa: N802
        try:
            message = self.read_message()
        except ValueError as error:
            self.send_json(400, {"error": {"message": "the body is not JSON: %s" % error}})
            return
        if message.get("protocol") != PROTOCOL:
            self.send_json(400, {"error": {"message": "expected protocol %s" % PROTOCOL}})
            return
        try:
            answers = self.answers(message)
        except Exception as error:  # the options were refused: every test case of the batch fails
            self.send_json(422, {"error": {"message": "%s: %s" % (type(error).__name__, error)}})
            return
        self.send_json(200, {"answers": answers})


def make_server(evaluator, create, host="127.0.0.1", port=0, handler=EvaluatorHandler, reads=None):
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    server.evaluator = evaluator
    server.reads = reads
    server.create = create
    server.instances = {}
    server.lock = threading.Lock()
    return server


def serve_http(evaluator, create, host="127.0.0.1", port=0, handler=EvaluatorHandler, reads=None):
    """Serves until killed. Prints the URL on stdout first (port 0: the system picks one)."""
    server = make_server(evaluator, create, host, port, handler, reads)
    print("http://%s:%d/" % server.server_address[:2], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)
