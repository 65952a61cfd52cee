#!/usr/bin/env python3
"""tool_error in Python: the share of the agent's tool calls that succeeded, as krino's built-in
krino.tool_error scores it (error flag, missing, blank or {"error": ...} results, error_patterns,
ignore_tools; error_pointers are left out of this example). A worker for `use: subprocess`:

    evaluators:
      - use: subprocess
        command: [python3, sdk/examples/subprocess_python/tool_error.py]
        error_patterns: ["^Error:"]
        ignore_tools: [think]
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from krino_worker import EvaluationError, serve  # noqa: E402

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1, "default": "tool_error"},
        "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0},
        "tool_calls_key": {"type": "string", "minLength": 1, "default": "toolCalls"},
        "error_patterns": {"type": "array", "items": {"type": "string", "minLength": 1}, "default": []},
        "ignore_tools": {"type": "array", "items": {"type": "string", "minLength": 1}, "default": []},
    },
    "additionalProperties": False,
}

BLANK = " \t\r\n\f\v"


def signals_error(value):
    return value is not None and value is not False


class ToolError:
    def __init__(self, options):
        self.name = options["name"]
        self.threshold = float(options["threshold"])
        self.key = options["tool_calls_key"]
        self.patterns = [re.compile(p) for p in options["error_patterns"]]
        self.ignore = set(options["ignore_tools"])

    def failure(self, call):
        metadata = call.get("metadata") or {}
        if metadata.get("isError") is True:
            return "error_flag", None
        if "result" not in call:
            return "no_result", None
        result = call["result"]
        if not isinstance(result, str):
            result = json.dumps(result, separators=(",", ":"), ensure_ascii=False)
        if result.strip(BLANK) == "":
            return "blank_result", None
        try:
            parsed = json.loads(result)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and "error" in parsed and signals_error(parsed["error"]):
            return "error_field", None
        for pattern in self.patterns:
            if pattern.search(result):
                return "error_pattern", pattern.pattern
        return None

    def evaluate(self, test_case, context):
        calls = test_case.get("actualOutputs", {}).get(self.key)
        if calls is None:
            raise EvaluationError("actualOutputs has no '%s' list" % self.key, "INVALID_ARGUMENT")
        failed, failed_text, ignored = [], [], 0
        for index, call in enumerate(calls):
            if call.get("name") in self.ignore:
                ignored += 1
                continue
            why = self.failure(call)
            if why is None:
                continue
            entry = {"index": index, "tool": call["name"], "rule": why[0]}
            if why[0] == "error_pattern":
                entry["pattern"] = why[1]
            failed.append(entry)
            failed_text.append("#%d %s (%s)" % (index, call["name"], why[0]))
        judged = len(calls) - ignored
        succeeded = judged - len(failed)
        score = 1.0 if judged == 0 else succeeded / judged
        if not calls:
            reason = "no tool calls were made"
        elif judged == 0:
            reason = "every tool call was of an ignored tool"
        else:
            reason = "%d of %d %s" % (succeeded, judged, "tool call succeeded" if judged == 1 else "tool calls succeeded")
        if failed_text:
            reason += "; failed: " + ", ".join(failed_text)
        if ignored > 0 and judged > 0:
            reason += "; %d ignored" % ignored
        metadata = {"totalCalls": judged}
        if self.ignore:
            metadata["ignoredCalls"] = ignored
        metadata["failedCount"] = len(failed)
        metadata["failedCalls"] = failed
        return {"name": self.name, "score": score, "success": score >= self.threshold,
                "threshold": self.threshold, "reason": reason, "metadata": metadata}


if __name__ == "__main__":
    serve({"id": "example.python.tool_error", "name": "tool_error", "version": "1.0.0",
           "description": "The share of the agent's tool calls that succeeded (Python).",
           "configSchema": SCHEMA, "capabilities": ["deterministic"]},
          ToolError,
          # Only the tool calls are scored: the inputs, expected outputs and metadata (often most of
          # a test case's bytes) are neither sent nor decoded.
          reads=["actualOutputs"])
