#!/usr/bin/env python3
"""Writes or refreshes the "expected" trace of golden files from what `krino extract` prints now.

A golden file (tests/plugins/<family>/golden/*.json) names a fixture under tests/fixtures, the input
taken from it ("input": "" for the whole file, a JSON pointer, or an object of pointers that builds
an object), the extractor, and how the expected trace was checked by hand ("checked"). This script
only fills in "expected"; every change it makes must be reviewed against the raw fixture before it
is committed, and "checked" updated to say how.

    tests/support/trace_golden.py build/dev tests/plugins/openai/golden/*.json
"""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def resolve(document, pointer):
    if pointer == "":
        return document
    value = document
    for token in pointer.lstrip("/").split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        value = value[int(token)] if isinstance(value, list) else value[token]
    return value


def golden_input(golden):
    fixture = ROOT / "tests" / "fixtures" / golden["fixture"]
    spec = golden.get("input", "")
    if spec == "":
        return fixture.read_bytes()
    document = json.loads(fixture.read_text())
    if isinstance(spec, str):
        return json.dumps(resolve(document, spec)).encode()
    return json.dumps({key: resolve(document, pointer) for key, pointer in spec.items()}).encode()


def main():
    build = Path(sys.argv[1])
    for path in sys.argv[2:]:
        golden = json.loads(Path(path).read_text())
        result = subprocess.run(
            [str(build / "bin" / "krino"), "extract", "--compact", "--plugin-dir", str(build / "lib" / "krino" / "plugins"),
             "--extractor", golden["extractor"], "-"],
            input=golden_input(golden), capture_output=True, check=True)
        golden["expected"] = json.loads(result.stdout)
        Path(path).write_text(json.dumps(golden, indent=2, ensure_ascii=False) + "\n")
        print("wrote", path)


if __name__ == "__main__":
    main()
