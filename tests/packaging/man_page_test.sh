#!/usr/bin/env bash
# The man page (packaging/krino.1.in, as configured by the build):
#   1. renders with groff's man macros without a single warning (-ww), where groff is installed;
#   2. names every command `krino --help` lists, and describes every option each command's --help
#      prints in that command's subsection (or, for the plugin options and -h/--help, in the
#      shared "Plugin options" / "Test options" / "Other options" subsections the command refers to).
# Usage: man_page_test.sh KRINO_BINARY MAN_PAGE
set -euo pipefail
KRINO=$1
man_page=$2
here=$(dirname "$0")
# shellcheck source=help_options.sh
source "$here/help_options.sh"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# 1. Rendering.
if command -v groff >/dev/null; then
    warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$man_page" 2>&1 || true)
    if [[ -n $warnings ]]; then
        fail "groff -man -ww warns about $man_page:"
        echo "$warnings"
    else
        echo "ok: $man_page renders without warnings"
    fi
else
    echo "note: groff is not installed; the rendering check is skipped (the option checks still run)"
fi

# 2. Commands and options. The roff source is made plain: \- is -, font escapes go.
plain=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$man_page")
# section TITLE-PREFIX: the text of the .SS subsection whose title starts with TITLE-PREFIX.
section() {
    awk -v want="$1" '
        /^\.S[SH] / { title = $0; sub(/^\.S[SH] "?/, "", title); in_section = (index(title, want) == 1); next }
        in_section' <<<"$plain"
}
# Options several commands share are described once, in a subsection the command points at
# ("And the plugin options below."); -h/--help in "Other options".

# The tag lines of a section: the line after each .TP, where the option being described is named.
tags() { awk 'after_tp { print; after_tp = 0 } /^\.TP/ { after_tp = 1 }'; }
plugin_tags=$(section "Plugin options" | tags)
test_tags=$(section "Test options" | tags)
other_tags=$(section "Other options" | tags)

commands=$(krino_commands)
[[ -n $commands ]] || fail "krino --help lists no commands"
synopsis=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' <<<"$plain")
while IFS= read -r command <&3; do
    text=$(section "krino $command")
    if [[ -z $text ]]; then
        fail "the man page has no subsection \"krino $command\" (packaging/krino.1.in, COMMANDS)"
        continue
    fi
    grep -qx "\.B $command" <<<"$synopsis" || fail "the SYNOPSIS does not show krino $command"
    available="$(tags <<<"$text")
$other_tags"
    if grep -q "plugin options below" <<<"$text"; then available="$available
$plugin_tags"; fi
    if grep -q "test options below" <<<"$text"; then available="$available
$test_tags"; fi
    missing=()
    for option in $(krino_options "$command"); do
        grep -qE -- "^\.[BI][IR]? (.*[ \"])?$option([ \",]|\$)" <<<"$available" || missing+=("$option")
    done
    if ((${#missing[@]})); then
        fail "krino $command --help prints ${missing[*]}, which the man page does not describe under \"krino $command\""
    else
        echo "ok: krino $command: every option is described"
    fi
done 3<<<"$commands"

if ((failures)); then
    echo "$failures failure(s)"
    exit 1
fi
