#!/usr/bin/env python3
"""tool_error as a service: the Python worker of sdk/examples/subprocess_python/tool_error.py,
scoring exactly as krino's built-in krino.tool_error, served over HTTP for `use: http_evaluator`:

    python3 sdk/examples/http_python/tool_error_server.py --port 8099

    evaluators:
      - use: http_evaluator
        url: http://127.0.0.1:8099/
        error_patterns: ["^Error:"]
        ignore_tools: [think]
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "subprocess_python"))
from krino_http_evaluator import serve_http  # noqa: E402
from tool_error import SCHEMA, ToolError  # noqa: E402

EVALUATOR = {"id": "example.python.tool_error_http", "name": "tool_error", "version": "1.0.0",
             "description": "The share of the agent's tool calls that succeeded (Python, over HTTP).",
             "configSchema": SCHEMA, "capabilities": ["deterministic"]}
# Only the tool calls are scored: the rest of a test case (often most of its bytes) is not sent.
READS = ["actualOutputs"]

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0: any free port (the URL is printed first)")
    arguments = parser.parse_args()
    serve_http(EVALUATOR, ToolError, arguments.host, arguments.port, reads=READS)
