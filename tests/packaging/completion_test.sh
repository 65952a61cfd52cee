#!/usr/bin/env bash
# The bash completion (packaging/krino-completion.bash), sourced into this shell the way bash
# loads it, then asked to complete command lines as if TAB were pressed at their end:
#   subcommands, options of each command (all that `krino <command> --help` prints), option
#   values, plugin and component names (from the real krino and plugins), and file names.
# Usage: completion_test.sh COMPLETION_SCRIPT KRINO_BINARY
set -euo pipefail
script=$1
KRINO=$2
here=$(dirname "$0")
# shellcheck source=help_options.sh
source "$here/help_options.sh"
# shellcheck source=/dev/null
source "$script"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# complete LINE: what the completion offers for LINE (TAB at its end), one a line. The first word
# is replaced by the krino under test, as a user would type its path.
complete_line() {
    local line=$1
    read -r -a COMP_WORDS <<<"$line"
    [[ $line == *' ' ]] && COMP_WORDS+=('')
    COMP_WORDS[0]=$KRINO
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMPREPLY=()
    _krino
    printf '%s\n' "${COMPREPLY[@]}" | sort
}

# expect LINE WORD...: the completion of LINE offers exactly these words.
expect() {
    local line=$1
    shift
    local got want
    got=$(complete_line "$line")
    want=$(printf '%s\n' "$@" | sort)
    if [[ $got == "$want" ]]; then
        echo "ok: '$line' -> $(echo $got)"
    else
        fail "'$line' offers [$(echo $got)], expected [$(echo $want)]"
    fi
}

# offers LINE WORD...: the completion of LINE offers at least these words.
offers() {
    local line=$1
    shift
    local got word missing=()
    got=$(complete_line "$line")
    for word in "$@"; do grep -qxF -- "$word" <<<"$got" || missing+=("$word"); done
    if ((${#missing[@]})); then
        fail "'$line' does not offer ${missing[*]} (offers: $(echo $got))"
    else
        echo "ok: '$line' offers $*"
    fi
}

complete -p krino >/dev/null 2>&1 || fail "sourcing $script registers no completion for krino"

# Commands.
expect "krino " run eval extract gate compare merge serve upload dataset mcp plugins
expect "krino pl" plugins
expect "krino e" eval extract
expect "krino s" serve
expect "krino u" upload
expect "krino m" mcp merge
expect "krino mcp --plugin" --plugin-dir --plugins
expect "krino mcp --d" --data-dir --database
expect "krino upload --s" --server
expect "krino serve --d" --data-dir --database
expect "krino plugins " list info check
expect "krino dataset " push pull diff
expect "krino dataset pull --f" --force
expect "krino dataset push --n" --name
expect "krino --v" --version

# Options, and their values.
expect "krino run --no" --no-cache
expect "krino eval --e" --evaluator
expect "krino plugins list --k" --kind
expect "krino plugins list --kind tr" trace-extractor
expect "krino compare a.jsonl b.jsonl --format m" markdown
expect "krino gate --pairing p" positional
expect "krino run x.yaml --set " 
# Every option `krino <command> --help` prints is offered after "-".
while IFS= read -r command <&3; do
    mapfile -t options < <(krino_options "$command")
    ((${#options[@]})) && offers "krino $command -" "${options[@]}"
done 3< <(krino_commands)

# Names from the installed (here: built) plugins.
offers "krino eval -e exact" exact_match
offers "krino eval --evaluator structural" structural_match
offers "krino extract -x openai" openai_chat
offers "krino plugins info tool_" tool_trajectory
expect "krino run x.yaml --plugins te" text
expect "krino run x.yaml --plugins text,fi" text,files
offers "krino run x.yaml --plugins " text files console json judge openai

# Files and directories.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/plugins-here"
touch "$work/eval.yaml" "$work/evidence.jsonl"
expect "krino run $work/ev" "$work/eval.yaml" "$work/evidence.jsonl"
expect "krino eval -e exact_match $work/evi" "$work/evidence.jsonl"
expect "krino run $work/eval.yaml --plugin-dir $work/pl" "$work/plugins-here"

if ((failures)); then
    echo "$failures failure(s)"
    exit 1
fi
