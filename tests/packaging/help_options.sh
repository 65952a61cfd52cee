# Sourced by the man page and completion tests: what `krino --help` says the commands and options
# are, so both tests follow the binary (a new option fails them until it is documented).
# Needs KRINO set to the krino binary.

# krino_commands: every command, one a line ("run", ..., "plugins list", "plugins info").
krino_commands() {
    local command sub
    for command in $(krino_subcommands); do
        if [[ $command == plugins ]]; then
            for sub in $(krino_subcommands plugins); do echo "plugins $sub"; done
        else
            echo "$command"
        fi
    done
}

# krino_subcommands [WORDS...]: the "Subcommands:" section of `krino WORDS... --help`.
krino_subcommands() {
    "$KRINO" "$@" --help | awk '
        /^[A-Za-z].*:$/ { in_section = ($0 == "Subcommands:"); next }
        in_section && /^  [a-z]/ { print $1 }'
}

# krino_options COMMAND: every option spelling (-e, --evaluator, ...) of `krino COMMAND --help`,
# one a line, leaving out -h/--help, which every command has.
krino_options() {
    # shellcheck disable=SC2086  # COMMAND is one or two words
    "$KRINO" $1 --help | awk '
        /^ +-/ {
            n = split($1, spellings, ",")
            for (i = 1; i <= n; i++) if (spellings[i] != "-h" && spellings[i] != "--help") print spellings[i]
        }'
}
