#!/usr/bin/env bash
# The evaluations-as-unit-tests examples (sdk/examples/gtest_eval, sdk/examples/boost_test_eval) run
# as a user runs them: each binary passes without its known miss, and fails with it, printing
# krino's message word for word; GoogleTest's --gtest_output=xml records that message too.
# Used by CTest on the in-tree builds and by tests/packaging/deb_test.sh on builds against the
# installed libkrino-testing-dev.
# Usage: examples_test.sh GTEST_BINARY BOOST_TEST_BINARY WORK_DIR
set -euo pipefail
gtest_binary=$1
boost_binary=$2
work=$3
mkdir -p "$work"
die() { echo "FAIL: $*"; exit 1; }

message_line1="Evaluation 'exact_match' failed: score=0.00 (threshold=1.00)"
message_line2='Reason: expected "Canberra", got "Sydney"'

# GoogleTest: without the known miss, then with it.
"$gtest_binary" --gtest_filter='-Dataset/CapitalsTest.answers/cap_03' >"$work/gtest-pass.txt" 2>&1 ||
    { cat "$work/gtest-pass.txt"; die "$gtest_binary failed without its known miss"; }
grep -q '^\[  PASSED  \] 3 tests\.$' "$work/gtest-pass.txt" || { cat "$work/gtest-pass.txt"; die "gtest: 3 tests should pass"; }

rm -f "$work/gtest.xml"
status=0
"$gtest_binary" --gtest_output="xml:$work/gtest.xml" >"$work/gtest-all.txt" 2>&1 || status=$?
[[ $status -eq 1 ]] || { cat "$work/gtest-all.txt"; die "gtest: exit status $status with the known miss, expected 1"; }
grep -A3 -F '[ RUN      ] Dataset/CapitalsTest.answers/cap_03' "$work/gtest-all.txt" | tail -2 >"$work/gtest-message.txt"
printf '%s\n%s\n' "$message_line1" "$message_line2" | cmp -s - "$work/gtest-message.txt" ||
    { cat "$work/gtest-all.txt"; die "gtest: the failure message is not krino's, word for word"; }
grep -q '^ 1 FAILED TEST$' "$work/gtest-all.txt" || { cat "$work/gtest-all.txt"; die "gtest: exactly one test should fail"; }
# The XML report: the failure of answers/cap_03, its message attribute escaped, and its text.
grep -qF '<testsuites tests="4" failures="1"' "$work/gtest.xml" || { cat "$work/gtest.xml"; die "gtest xml: 4 tests, 1 failure expected"; }
grep -qF "&#x0A;Evaluation &apos;exact_match&apos; failed: score=0.00 (threshold=1.00)&#x0A;Reason: expected &quot;Canberra&quot;, got &quot;Sydney&quot;\" type=\"\">" \
    "$work/gtest.xml" || { cat "$work/gtest.xml"; die "gtest xml: the failure's message attribute is not krino's message"; }
grep -A2 -F '<testcase name="answers/cap_03"' "$work/gtest.xml" | grep -qF 'failure message=' ||
    { cat "$work/gtest.xml"; die "gtest xml: the failure is not recorded on answers/cap_03"; }
grep -qxF "$message_line2]]></failure>" "$work/gtest.xml" || { cat "$work/gtest.xml"; die "gtest xml: the failure's text does not end with the reason"; }
echo "ok: gtest example ($gtest_binary)"

# Boost.Test: the data-driven case's third sample is the known miss.
"$boost_binary" --color_output=no --run_test='answers/_0,_1:case_is_ignored_when_asked' >"$work/boost-pass.txt" 2>&1 ||
    { cat "$work/boost-pass.txt"; die "$boost_binary failed without its known miss"; }
status=0
"$boost_binary" --color_output=no --logger="HRF,error,stdout:JUNIT,error,$work/boost.xml" >"$work/boost-all.txt" 2>&1 ||
    status=$?
[[ $status -ne 0 ]] || { cat "$work/boost-all.txt"; die "boost: exit status 0 with the known miss"; }
grep -A1 -F "error: in \"answers/_2\": $message_line1" "$work/boost-all.txt" | tail -1 | grep -qxF "$message_line2" ||
    { cat "$work/boost-all.txt"; die "boost: the failure message is not krino's, word for word"; }
[[ $(grep -c 'error: in' "$work/boost-all.txt") -eq 1 ]] || { cat "$work/boost-all.txt"; die "boost: exactly one check should fail"; }
grep -qF "$message_line2" "$work/boost.xml" || { cat "$work/boost.xml"; die "boost junit: the failure is not recorded"; }
echo "ok: boost.test example ($boost_binary)"
