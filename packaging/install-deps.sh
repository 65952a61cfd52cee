#!/usr/bin/env bash
# Installs what krino needs to build and test on Debian bookworm. Idempotent: a package already
# installed is left alone, and apt is not touched at all when nothing is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libboost1.81-dev libboost-json1.81-dev libboost-test1.81-dev
  libtbb-dev          # oneTBB: the scheduler
  libpcre2-dev        # regex evaluator (Perl/Java-like syntax)
  libcli11-dev        # command line parsing
  libyaml-cpp-dev     # experiment files in YAML
  libfmt-dev          # formatting
  libvalijson-dev     # JSON Schema validation of plugin configs and tool arguments
  libssl-dev          # TLS for remote judges
  libxml2-utils       # xmllint: the junit reporter's tests validate its XML against a JUnit schema
  chromium            # headless browser: the html reporter's tests load the report offline
  groff-base          # the man page test renders packaging/krino.1.in and checks for warnings
)

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
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
