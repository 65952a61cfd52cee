#!/usr/bin/env python3
"""The example tool_error server (sdk/examples/http_python) with faults scripted by URL path, for
cli_http_evaluator_test. A batch holding a test case whose context.itemIndex % 10 == 3 gets the
fault of the path it was sent to:

    /ok          no fault
    /http500     HTTP 500 (retried, then the item error)
    /http400     HTTP 400 (not retried)
    /slow        no reply for 3 s (past the test's timeout_ms)
    /notjson     a body that is not JSON
    /protocol    a reply in another protocol
    /missing     no answer for that test case
    /duplicate   two answers for it
    /badresult   a result with score 7 (fails krino's eval-result check)
    /flaky       HTTP 503 with Retry-After: 0 on the first attempt, then the answers
    /close       the connection closed without a reply
    /handshake   (GET) a handshake in another protocol
    /badreads    (GET) a handshake whose "reads" names a section that does not exist

The server declares what the example reads ("reads": ["actualOutputs"]); a batch carrying any other
section of a test case is refused with HTTP 400, so a krino that sends more fails the tests.

Usage: http_evaluator_faults.py PORT_FILE (the URL is written there once the server listens).
"""
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "sdk", "examples", "http_python")
sys.path.insert(0, EXAMPLES)
import tool_error_server  # noqa: E402
from krino_http_evaluator import EvaluatorHandler, make_server  # noqa: E402
from tool_error import ToolError  # noqa: E402

FLAKY_SEEN = set()
FLAKY_LOCK = threading.Lock()


def faulty(message):
    return any(r.get("context", {}).get("itemIndex", 0) % 10 == 3 for r in message["requests"])


class FaultHandler(EvaluatorHandler):
    def do_GET(self):  # noqa: N802
        if self.path == "/handshake":
            self.send_json(200, {"protocol": "krino.evaluatorworker/0", "evaluator": self.server.evaluator})
            return
        if self.path == "/badreads":
            self.send_json(200, {"protocol": "krino.evaluatorworker/1", "evaluator": self.server.evaluator,
                                 "reads": ["actualOutputs", "outputs"]})
            return
        super().do_GET()

    def do_POST(self):  # noqa: N802
        fault = self.path.strip("/")
        message = self.read_message()
        undeclared = sorted({key for r in message["requests"] for key in r["testCase"]} - set(self.server.reads))
        if undeclared:
            self.send_json(400, {"error": {"message": "sections not in the handshake's reads: %s" % undeclared}})
            return
        if fault == "ok" or not faulty(message):
            self.send_json(200, {"answers": self.answers(message)})
            return
        if fault == "http500":
            self.send_json(500, {"error": {"message": "scripted failure"}})
        elif fault == "http400":
            self.send_json(400, {"error": {"message": "scripted refusal"}})
        elif fault == "slow":
            time.sleep(3)
            self.send_json(200, {"answers": self.answers(message)})
        elif fault == "notjson":
            self.send_json(200, b"<html>not json</html>")
        elif fault == "protocol":
            self.send_json(200, {"protocol": "krino.evaluatorworker/2", "answers": self.answers(message)})
        elif fault in ("missing", "duplicate", "badresult"):
            answers = []
            for request, answer in zip(message["requests"], self.answers(message)):
                hit = request.get("context", {}).get("itemIndex", 0) % 10 == 3
                if hit and fault == "missing":
                    continue
                if hit and fault == "badresult":
                    answer["result"]["score"] = 7
                answers.append(answer)
                if hit and fault == "duplicate":
                    answers.append(answer)
            self.send_json(200, {"answers": answers})
        elif fault == "flaky":
            key = tuple(r["id"] for r in message["requests"])
            with FLAKY_LOCK:
                first = key not in FLAKY_SEEN
                FLAKY_SEEN.add(key)
            if first:
                self.send_json(503, {"error": {"message": "busy"}}, headers=[("Retry-After", "0")])
            else:
                self.send_json(200, {"answers": self.answers(message)})
        elif fault == "close":
            self.close_connection = True
            self.connection.shutdown(2)
        else:
            self.send_json(404, {"error": {"message": "unknown fault " + fault}})


if __name__ == "__main__":
    server = make_server(tool_error_server.EVALUATOR, ToolError, handler=FaultHandler,
                         reads=tool_error_server.READS)
    url = "http://%s:%d" % server.server_address[:2]
    with open(sys.argv[1] + ".tmp", "w") as out:
        out.write(url)
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()
