# bash completion for krino. Installed as /usr/share/bash-completion/completions/krino; works
# without the bash-completion package too (`source` it). Subcommands and options are listed here
# (tests/packaging/completion_test.sh checks them against `krino <command> --help`); plugin and
# component names come from `krino plugins list --plugin-names` / `--names`, asked of the krino
# being completed, with the --plugin-dir options already typed.

# The options each command takes, the plugin options of run/eval/extract/plugins included.
_krino_plugin_options='--plugin-dir --plugins -v --verbose'
_krino_options_run="--set --no-cache --shard --resume --retry-errors $_krino_plugin_options"
_krino_options_eval="-e --evaluator -c --config -j --parallelism --judges --no-cache $_krino_plugin_options"
_krino_options_extract="-x --extractor --detect --compact $_krino_plugin_options"
_krino_test_options='--pairing --alpha --seed --permutation-iterations --bootstrap-iterations'
_krino_options_gate="-b --baseline --server --experiment --run-id --baseline-run --baseline-branch --api-key --severity-margin --verdict-dir --on-removed-evaluator --update --no-fail-on-regression --fail-on-removed-items --fail-on-inconclusive --no-bootstrap-pass --json $_krino_test_options"
_krino_options_compare="-f --format --max-items --fail-on-regression $_krino_test_options"
_krino_options_merge='-o --output --allow-missing'
_krino_options_serve="--listen --data-dir --database --max-body-bytes --require-read-key --alert-poll-ms --alert-retry-ms --alert-max-delay-ms --alert-attempts --alert-timeout-ms --alert-lease-ms --job-poll-ms --job-lease-ms --job-retry-ms --job-slots --judge-page-size --judge-max-attempts --online-eval-delay-ms --mcp-allowed-origin --trace-retention-days $_krino_plugin_options"
_krino_options_upload="--server --project --experiment --api-key --allow-loss $_krino_plugin_options"
_krino_options_mcp="--data-dir --database $_krino_plugin_options"
_krino_options_dataset_push="--name --description --server --api-key $_krino_plugin_options"
_krino_options_dataset_pull="-o --output --force --server --api-key"
_krino_options_dataset_diff="--json --server --api-key"
_krino_options_plugins_list="--names --plugin-names --kind $_krino_plugin_options"
_krino_options_plugins_info="--json $_krino_plugin_options"
_krino_options_plugins_check="--timeout-ms --memory-mb"

# _krino_names <list-options>...: names printed by `krino plugins list <list-options>`, for the
# krino on the command line (a build tree's bin/krino as well as the installed one).
_krino_names() {
    local krino=${COMP_WORDS[0]} i
    local -a dirs=()
    for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
        if [[ ${COMP_WORDS[i]} == --plugin-dir ]]; then
            dirs+=(--plugin-dir "${COMP_WORDS[i + 1]}")
        fi
    done
    krino=${krino/#\~/$HOME}
    "$krino" plugins list "$@" "${dirs[@]}" 2>/dev/null
}

_krino_files() {
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -f -- "$1")
}

_krino() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()

    # The command (run, eval, ..., "plugins list"): the first words that are not options.
    local command='' i word
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        [[ $word == -* ]] && continue
        case $command in
            '') command=$word ;;
            plugins | dataset) command="$command $word" ;;
        esac
        [[ $command == plugins || $command == dataset ]] || break
    done

    # The value of the option just typed.
    case $prev in
        --plugin-dir | --verdict-dir | --data-dir)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -d -- "$cur")
            return ;;
        --judges | -b | --baseline | -o | --output | --database)
            _krino_files "$cur"
            return ;;
        --plugins)
            # A comma-separated list: complete the name after the last comma.
            local done_part='' last=$cur
            if [[ $cur == *,* ]]; then
                done_part=${cur%,*},
                last=${cur##*,}
            fi
            local name
            while IFS= read -r name; do
                [[ $name == "$last"* ]] && COMPREPLY+=("$done_part$name")
            done < <(_krino_names --plugin-names)
            compopt -o nospace 2>/dev/null
            return ;;
        -e | --evaluator)
            mapfile -t COMPREPLY < <(compgen -W "$(_krino_names --names --kind evaluator)" -- "$cur")
            return ;;
        -x | --extractor)
            mapfile -t COMPREPLY < <(compgen -W "auto $(_krino_names --names --kind trace-extractor)" -- "$cur")
            return ;;
        --kind)
            mapfile -t COMPREPLY < <(compgen -W 'evaluator dataset-resolver trace-extractor reporter' -- "$cur")
            return ;;
        -f | --format)
            mapfile -t COMPREPLY < <(compgen -W 'text json markdown' -- "$cur")
            return ;;
        --pairing)
            mapfile -t COMPREPLY < <(compgen -W 'auto positional id' -- "$cur")
            return ;;
        --on-removed-evaluator)
            mapfile -t COMPREPLY < <(compgen -W 'fail warn' -- "$cur")
            return ;;
        --set | -c | --config | -j | --parallelism | --shard | --severity-margin | --alpha | --seed | \
            --permutation-iterations | --bootstrap-iterations | --max-items | --listen | --max-body-bytes | \
            --server | --project | --experiment | --api-key | --name | --description | --alert-poll-ms | --alert-retry-ms | --alert-max-delay-ms | \
            --alert-attempts | --alert-timeout-ms | --alert-lease-ms | --job-poll-ms | --job-lease-ms | --job-retry-ms | --job-slots | \
            --judge-page-size | --judge-max-attempts | --online-eval-delay-ms | --mcp-allowed-origin | --timeout-ms | --memory-mb | --trace-retention-days)
            return ;;  # free-form values
    esac

    if [[ $cur == -* ]]; then
        local options
        case $command in
            run) options=$_krino_options_run ;;
            eval) options=$_krino_options_eval ;;
            extract) options=$_krino_options_extract ;;
            gate) options=$_krino_options_gate ;;
            compare) options=$_krino_options_compare ;;
            merge) options=$_krino_options_merge ;;
            serve) options=$_krino_options_serve ;;
            upload) options=$_krino_options_upload ;;
            mcp) options=$_krino_options_mcp ;;
            'dataset push') options=$_krino_options_dataset_push ;;
            'dataset pull') options=$_krino_options_dataset_pull ;;
            'dataset diff') options=$_krino_options_dataset_diff ;;
            'plugins list') options=$_krino_options_plugins_list ;;
            'plugins info') options=$_krino_options_plugins_info ;;
            'plugins check') options=$_krino_options_plugins_check ;;
            '') options='--help --version' ;;
            *) options='' ;;
        esac
        mapfile -t COMPREPLY < <(compgen -W "$options --help" -- "$cur")
        return
    fi

    case $command in
        '') mapfile -t COMPREPLY < <(compgen -W 'run eval extract gate compare merge serve upload dataset mcp plugins' -- "$cur") ;;
        dataset) mapfile -t COMPREPLY < <(compgen -W 'push pull diff' -- "$cur") ;;
        'dataset pull' | 'dataset diff') ;;  # name@version: nothing to complete locally
        plugins) mapfile -t COMPREPLY < <(compgen -W 'list info check' -- "$cur") ;;
        'plugins info') mapfile -t COMPREPLY < <(compgen -W "$(_krino_names --names)" -- "$cur") ;;
        'plugins list') ;;
        'plugins check')  # a plugin library: .so files, and folders to reach them
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -X '!*.so' -- "$cur"; compgen -d -- "$cur") ;;
        *) _krino_files "$cur" ;;  # experiment files, JSON Lines inputs, traces, runs, shards
    esac
}

complete -F _krino krino
