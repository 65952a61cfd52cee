#!/usr/bin/env bash
# Installs what krino needs on Debian bookworm. Idempotent: a package already installed is left
# alone, and apt is not touched at all when nothing is missing.
#
#   bash packaging/install-deps.sh                     what building and running krino need
#   bash packaging/install-deps.sh --with-test-tools   and what only the test suite uses
set -euo pipefail

with_test_tools=0
for arg in "$@"; do
  case "$arg" in
    --with-test-tools) with_test_tools=1 ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-deps: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

# Building and running.
packages=(
  build-essential cmake ninja-build pkg-config git
  ccache              # compiler cache: the launcher of every preset (docs/building.md)
  libboost1.81-dev libboost-json1.81-dev libboost-test1.81-dev
  libtbb-dev          # oneTBB: the scheduler
  libpcre2-dev        # regex evaluator (Perl/Java-like syntax)
  libcli11-dev        # command line parsing
  libyaml-cpp-dev     # experiment files in YAML
  libfmt-dev          # formatting
  libvalijson-dev     # JSON Schema validation of plugin configs and tool arguments
  libicu-dev          # Unicode case and white space for the OpenJudge graders (agent plugin)
  libssl-dev          # TLS for remote judges
  libpq-dev           # libpq: the results server's PostgreSQL backend (krino serve --database postgresql://...)
  libsqlite3-dev      # SQLite: the results server's default, embedded database
  libprotobuf-dev     # protobuf (lite runtime): OTLP/HTTP protobuf trace ingestion (krino serve, POST /v1/traces)
  protobuf-compiler   # protoc: compiles the OTLP .proto files (third_party/opentelemetry-proto) at build time
  # Test frameworks the build compiles against, like libboost-test-dev above: configuring with tests
  # (every preset) needs them.
  libgtest-dev        # GoogleTest: the evaluations-as-unit-tests example (sdk/examples/gtest_eval) and its tests
  catch2              # Catch2 (v2, header-only): the tests of libkrino-testing's Catch2 adapter (tests/testing)
)
# Only the tests use these.
test_packages=(
  libxml2-utils       # xmllint: the junit reporter's tests validate its XML against a JUnit schema
  chromium            # headless browser: the html reporter's report and krino serve's web UI (tests/ui) are tested in it
  nodejs              # Node.js for the browser and protocol-client tests: tests/ui (playwright-core driving Debian's
                      # chromium) and tests/mcp_client (the official MCP TypeScript SDK and the conformance suite)
  groff-base          # the man page test renders packaging/krino.1.in and checks for warnings
  python3-minimal     # the layout test (cmake/krino_layout_check.py): the dependency rule and core's layers
  clang-14            # the fuzz preset: the fuzz harnesses are built with clang (docs/fuzzing.md)
  libclang-rt-14-dev  # clang's runtime libraries: libFuzzer and the sanitizers' for clang
  postgresql          # initdb/postgres: the server tests start a throwaway cluster (tests/support/postgres)
)
[ "$with_test_tools" -eq 0 ] || packages+=("${test_packages[@]}")
# npm comes with some builds of Node.js (NodeSource's) and conflicts with Debian's npm package
# there: Debian's is asked for only when no npm is on the PATH.
if [ "$with_test_tools" -eq 1 ] && ! command -v npm >/dev/null 2>&1; then packages+=(npm); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
started=$SECONDS
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: apt took $((SECONDS - started)) s"
