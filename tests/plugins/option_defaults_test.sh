#!/bin/bash
# First-party plugins take option defaults from their config schema only (docs/sdk.md, "Options
# and their defaults"): no getter with a literal fallback, no read_common_options with a name and a
# threshold, no key or choice read with a literal default. Files still to move are listed below;
# the list only shrinks.
# usage: option_defaults_test.sh SOURCE_DIR
set -u
cd "$1/plugins" || exit 2

# Not yet on the schema's defaults (issue 13, "one option reader"): move them, then delete the line.
pending=(
)

pattern='\b(get_(int|double|bool|string)\("[A-Za-z_]+", |read_(key_option|choice)\([a-z_]+, "[A-Za-z_]+", "|read_common_options\(check_option_names|read_common_options\([^()]*\), "|read_unit_option\([a-z_]+, "[A-Za-z_]+", [0-9])'
found=$(grep -rnE "$pattern" --include='*.cpp' --include='*.h' --include='*.hpp' . | sed 's|^\./||')
for file in "${pending[@]}"; do
  found=$(printf '%s\n' "$found" | grep -v "^$file:")
done
found=$(printf '%s\n' "$found" | sed '/^$/d')
if [[ -n "$found" ]]; then
  echo "option defaults written in code (declare them in the component's schema and read them without a fallback):"
  printf '%s\n' "$found"
  exit 1
fi
for file in "${pending[@]}"; do
  [[ -f "$file" ]] || { echo "pending list names a file that is gone: $file"; exit 1; }
done
echo "ok: no first-party option default outside the schemas (${#pending[@]} files pending)"
