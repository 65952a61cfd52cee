#!/bin/bash
# Every JSON text krino turns into a value is read by krino::json::parse (sdk/include/krino/
# json_parse.hpp), whose doubles are correctly rounded; Boost.JSON 1.81's own parse is not
# (docs/architecture.md, "Numbers"). This fails on a new boost::json::parse, boost::json::parser or
# stream_parser in sdk/, core/, apps/ or plugins/. Two handlers of Boost's basic_parser are
# allowed: json_scan's validating pass (it keeps no number), eval_result_check's field reader
# (it reads the score again from its text with krino::json::exact_double) and the host's lent parse
# of a test case (host_document's TapeBuilder: each number kept as its text, its double read again
# with krino::json::exact_double where Boost's could be off).
# usage: exact_json_parse_test.sh SOURCE_DIR
set -u
cd "$1" || exit 2

pattern='(boost::json::parse\(|[^:a-z_]json::parse\(|json::parser\b|stream_parser|basic_parser<)'
found=$(grep -rnE "$pattern" --include='*.cpp' --include='*.h' --include='*.hpp' sdk core apps plugins |
        grep -v '^sdk/include/krino/json_parse.hpp:' | grep -v '^core/src/common/json_scan.cpp:.*basic_parser<ValidatingHandler>' |
        grep -v '^core/src/runner/eval_result_check.cpp:.*basic_parser<ResultFields>' |
        grep -v '^core/src/host/host_document.cpp:.*basic_parser<TapeBuilder>')
found=$(printf '%s\n' "$found" | sed '/^$/d')
if [[ -n "$found" ]]; then
  echo "JSON read without krino::json::parse (its numbers would not be exact):"
  printf '%s\n' "$found"
  exit 1
fi
echo "ok: every JSON parse goes through krino::json::parse"
