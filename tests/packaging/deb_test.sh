#!/usr/bin/env bash
# The Debian packages, as a user gets them:
#   1. cpack -G DEB in the build tree makes the six packages, with the expected control fields
#      (plugins need this exact krino; libkrino-sdk-dev is arch all and needs no runtime library;
#      libkrino-testing-dev needs the core plugins of this krino and its libraries);
#   2. dpkg installs them; files land where the host and the SDK expect them;
#   3. /usr/bin/krino finds its plugins, and the SDK examples (sdk/examples) build against the
#      installed SDK both with find_package(KrinoSDK) and with pkg-config krino-sdk, and run; the
#      evaluations-as-unit-tests examples build against libkrino-testing-dev (find_package(KrinoTesting),
#      pkg-config krino-testing) and fail exactly their known miss with krino's message;
#   4. the packages are purged again, also when a step fails (trap), leaving the machine as found.
# Installs into /usr, so it runs as root only; otherwise it exits 77, which CTest reports as
# skipped (SKIP_RETURN_CODE in tests/packaging/CMakeLists.txt).
# Usage: deb_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1")
source_dir=$(realpath "$2")
packages=(krino krino-plugins-core krino-plugins-judge krino-plugins-traces libkrino-sdk-dev libkrino-testing-dev)

skip() { echo "SKIPPED: $*"; exit 77; }
[[ $(id -u) -eq 0 ]] || skip "installs the packages into /usr with dpkg, so it runs as root only (CI runs it as root)"
command -v dpkg >/dev/null && command -v dpkg-shlibdeps >/dev/null ||
    skip "needs dpkg and dpkg-shlibdeps (Debian's dpkg-dev)"
for package in "${packages[@]}"; do
    if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q installed; then
        skip "$package is already installed on this machine; this test installs and purges its own copy, so it leaves it alone"
    fi
done
[[ -f $build/CPackConfig.cmake ]] ||
    { echo "FAIL: $build/CPackConfig.cmake is missing (configure the tree first)"; exit 1; }

work="$build/tests/packaging/deb"
rm -rf "$work"
mkdir -p "$work"
cleanup() {
    local status=$?
    dpkg --purge "${packages[@]}" >"$work/purge.log" 2>&1 || { echo "purging failed:"; cat "$work/purge.log"; }
    if [[ -e /usr/bin/krino || -e /usr/lib/krino/plugins/krino-text.so || -e /usr/share/pkgconfig/krino-sdk.pc ||
          -e /usr/lib/libkrino-testing.so.0 || -e /usr/include/krino/testing ]]; then
        echo "FAIL: files are left behind after purging"
        status=1
    fi
    exit $status
}
trap cleanup EXIT
step() { echo "== $*"; }
die() { echo "FAIL: $*"; exit 1; }

# 1. The packages.
step "cpack -G DEB"
(cd "$build" && cpack -G DEB -B "$work/debs") >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; die "cpack failed"; }
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
arch=$(dpkg --print-architecture)
declare -A deb
for package in "${packages[@]}"; do
    package_arch=$arch
    [[ $package == libkrino-sdk-dev ]] && package_arch=all
    deb[$package]="$work/debs/${package}_${version}_${package_arch}.deb"
    [[ -f ${deb[$package]} ]] || die "cpack made no ${deb[$package]##*/}; it made: $(cd "$work/debs" && ls ./*.deb)"
done
count=$(find "$work/debs" -maxdepth 1 -name '*.deb' | wc -l)
[[ $count -eq 6 ]] || die "cpack made $count packages, expected 6"

field() { dpkg-deb --field "${deb[$1]}" "$2"; }
[[ $(field krino Depends) == *libc6* ]] || die "krino's Depends has no libc6: dpkg-shlibdeps did not run ($(field krino Depends))"
for package in krino-plugins-core krino-plugins-judge krino-plugins-traces; do
    [[ $(field "$package" Depends) == *"krino (= $version)"* ]] ||
        die "$package must depend on krino (= $version); Depends: $(field "$package" Depends)"
done
sdk_depends=$(field libkrino-sdk-dev Depends)
if grep -qE '(^|[ ,])(krino|libc6|libstdc\+\+6|libgcc-s1|libtbb[0-9]*)( |,|$)' <<<"$sdk_depends"; then
    die "libkrino-sdk-dev must not depend on krino or any runtime library; Depends: $sdk_depends"
fi
[[ $(field libkrino-sdk-dev Architecture) == all ]] || die "libkrino-sdk-dev is not Architecture: all"
testing_depends=$(field libkrino-testing-dev Depends)
[[ $testing_depends == *"krino-plugins-core (= $version)"* && $testing_depends == *libtbb* ]] ||
    die "libkrino-testing-dev must depend on krino-plugins-core (= $version) and its libraries; Depends: $testing_depends"
echo "control fields: krino Depends: $(field krino Depends)"
echo "control fields: libkrino-sdk-dev Depends: $sdk_depends"

# Each plugin in the package its folder says.
contents() { dpkg-deb --contents "${deb[$1]}" | awk '{ print $6 }'; }
contents krino-plugins-core | grep -q '/usr/lib/krino/plugins/krino-text.so$' || die "krino-text.so is not in krino-plugins-core"
contents krino-plugins-core | grep -q '/usr/lib/krino/plugins/krino-junit.so$' || die "krino-junit.so is not in krino-plugins-core"
contents krino-plugins-judge | grep -q '/usr/lib/krino/plugins/krino-judge.so$' || die "krino-judge.so is not in krino-plugins-judge"
contents krino-plugins-traces | grep -q '/usr/lib/krino/plugins/krino-openai.so$' || die "krino-openai.so is not in krino-plugins-traces"
if contents libkrino-sdk-dev | grep -qE '\.so$|/bin/'; then die "libkrino-sdk-dev holds binaries"; fi
for file in /usr/lib/libkrino-testing.so.0 /usr/include/krino/testing/gtest.hpp /usr/lib/cmake/KrinoTesting/KrinoTestingConfig.cmake \
    /usr/lib/pkgconfig/krino-testing.pc; do
    contents libkrino-testing-dev | grep -q "^\.$file\$" || die "$file is not in libkrino-testing-dev"
done

# 2. Install.
step "dpkg -i"
dpkg -i "${deb[@]}" >"$work/install.log" 2>&1 || { cat "$work/install.log"; die "dpkg -i failed"; }
for file in /usr/bin/krino /usr/bin/krino-plugin-host /usr/share/man/man1/krino.1.gz /usr/share/bash-completion/completions/krino \
    /usr/lib/systemd/system/krino.service \
    /usr/share/doc/krino/copyright /usr/share/doc/libkrino-sdk-dev/copyright \
    /usr/lib/krino/plugins/krino-text.so /usr/share/krino/schemas/testcase.json \
    /usr/share/cmake/KrinoSDK/KrinoSDKConfig.cmake /usr/share/pkgconfig/krino-sdk.pc /usr/include/krino/plugin.h \
    /usr/include/krino/plugin.hpp /usr/include/krino/plugin/entry.hpp; do
    [[ -e $file ]] || die "$file is not installed"
done
grep -qx 'ExecStart=/usr/bin/krino serve --listen 127.0.0.1:8080 --data-dir /var/lib/krino' /usr/lib/systemd/system/krino.service ||
    die "krino.service does not start /usr/bin/krino serve"
grep -qx 'prefix=/usr' /usr/share/pkgconfig/krino-sdk.pc || die "krino-sdk.pc does not say prefix=/usr: $(grep '^prefix=' /usr/share/pkgconfig/krino-sdk.pc)"

# 3. The installed krino, its plugins, and plugins built against the installed SDK.
unset KRINO_PLUGIN_PATH
step "/usr/bin/krino plugins list"
/usr/bin/krino plugins list >"$work/list.txt" || { cat "$work/list.txt"; die "krino plugins list failed"; }
for plugin in krino-text.so krino-files.so krino-console.so krino-judge.so krino-openai.so; do
    grep -q "$plugin" "$work/list.txt" || { cat "$work/list.txt"; die "the installed krino does not find $plugin"; }
done
/usr/bin/krino --version | grep -qx "krino $version" || die "krino --version does not say $version"

case_line='{"actualOutputs":{"output":"three small words"},"expectedOutputs":{"output":"three small words"}}'
echo "$case_line" | /usr/bin/krino eval -e exact_match --plugins text >"$work/exact.txt" ||
    { cat "$work/exact.txt"; die "krino eval -e exact_match with the installed plugins failed"; }
grep -q '"success":true' "$work/exact.txt" || die "exact_match did not pass: $(cat "$work/exact.txt")"

# Unoptimised builds below: this test is about the installed files, and it runs alone (RUN_SERIAL), so
# every second counts; sdk_example_out_of_tree (tests/abi) builds the same examples optimised with -Werror.
step "sdk/examples with find_package(KrinoSDK)"
for example in word_count c_evaluator; do
    cmake -S "$source_dir/sdk/examples/$example" -B "$work/cmake/$example" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$work/cmake-$example.log" 2>&1 &&
        cmake --build "$work/cmake/$example" >>"$work/cmake-$example.log" 2>&1 ||
        { cat "$work/cmake-$example.log"; die "building $example with find_package(KrinoSDK) failed"; }
done

step "sdk/examples with pkg-config krino-sdk"
mkdir -p "$work/pkg-config"
pc() { pkg-config "$@" krino-sdk; }
# shellcheck disable=SC2046  # --cflags is a list of flags
c++ -std=c++17 -O0 -fPIC -shared -fvisibility=hidden $(pc --cflags) \
    "$source_dir/sdk/examples/word_count/word_count.cpp" "$(pc --variable=jsonsource)" \
    -Wl,--version-script="$(pc --variable=versionscript)" -Wl,--exclude-libs,ALL -Wl,-z,defs \
    -o "$work/pkg-config/word_count.so" || die "building word_count with pkg-config failed"
# shellcheck disable=SC2046
cc -std=c11 -O0 -fPIC -shared -fvisibility=hidden $(pc --cflags) "$source_dir/sdk/examples/c_evaluator/c_nonempty.c" \
    -Wl,--version-script="$(pc --variable=versionscript)" -Wl,-z,defs \
    -o "$work/pkg-config/c_nonempty.so" || die "building c_nonempty with pkg-config failed"
[[ $(pc --variable=pluginsdir) == /usr/lib/krino/plugins ]] || die "pluginsdir is $(pc --variable=pluginsdir), not /usr/lib/krino/plugins"

step "the built plugins under /usr/bin/krino"
for dir in "$work/cmake/word_count" "$work/cmake/c_evaluator" "$work/pkg-config"; do
    /usr/bin/krino plugins list --plugin-dir "$dir" >"$work/list-built.txt" 2>&1 || true
    case $dir in
        */word_count) expected=(word_count) ;;
        */c_evaluator) expected=(c_nonempty) ;;
        *) expected=(word_count c_nonempty) ;;
    esac
    for evaluator in "${expected[@]}"; do
        grep -q " $evaluator " "$work/list-built.txt" || { cat "$work/list-built.txt"; die "krino plugins list does not show $evaluator from $dir"; }
        out=$(echo "$case_line" | /usr/bin/krino eval -e "$evaluator" --plugin-dir "$dir" --plugins "$evaluator") ||
            die "krino eval -e $evaluator --plugin-dir $dir failed: $out"
        grep -q "\"name\":\"$evaluator\".*\"success\":true\|\"success\":true.*\"name\":\"$evaluator\"" <<<"$out" ||
            die "$evaluator from $dir did not pass: $out"
        echo "ok: $evaluator from ${dir#"$work"/}: $out"
    done
done

# Evaluations inside unit tests, against libkrino-testing-dev: it finds the plugins in /usr/lib/krino/plugins.
step "sdk/examples/gtest_eval and boost_test_eval against libkrino-testing-dev"
# The tree's -fsanitize flags, when it has them (tests/packaging/CMakeLists.txt says why).
sanitize=${KRINO_SANITIZER_FLAGS:-}
for example in gtest_eval boost_test_eval; do
    cmake -S "$source_dir/sdk/examples/$example" -B "$work/cmake/$example" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS="$sanitize" -DCMAKE_EXE_LINKER_FLAGS="$sanitize" \
        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$work/cmake-$example.log" 2>&1 &&
        cmake --build "$work/cmake/$example" >>"$work/cmake-$example.log" 2>&1 ||
        { cat "$work/cmake-$example.log"; die "building $example with find_package(KrinoTesting) failed"; }
done
# The packaged library, wherever the loader finds it (/lib is /usr/lib on a merged-/usr system).
loaded=$(ldd "$work/cmake/gtest_eval/capitals_gtest" | sed -n 's/^[[:space:]]*libkrino-testing\.so\.0 => \([^ ]*\) .*/\1/p')
[[ -n $loaded && $loaded -ef /usr/lib/libkrino-testing.so.0 ]] ||
    die "the gtest example does not use /usr/lib/libkrino-testing.so.0: $(ldd "$work/cmake/gtest_eval/capitals_gtest" | grep krino)"
bash "$source_dir/tests/testing/examples_test.sh" "$work/cmake/gtest_eval/capitals_gtest" \
    "$work/cmake/boost_test_eval/capitals_boost_test" "$work/testing-cmake" || die "the examples against libkrino-testing-dev"
# shellcheck disable=SC2046  # --cflags/--libs are lists of flags
c++ -std=c++17 -O0 $sanitize -DKRINO_EXAMPLE_DATASET="\"$source_dir/sdk/examples/gtest_eval/capitals.jsonl\"" \
    "$source_dir/sdk/examples/gtest_eval/capitals_test.cpp" $(pkg-config --cflags --libs krino-testing) \
    -lgtest_main -lgtest -pthread -o "$work/pkg-config/capitals_gtest" || die "building the gtest example with pkg-config krino-testing failed"
bash "$source_dir/tests/testing/examples_test.sh" "$work/pkg-config/capitals_gtest" \
    "$work/cmake/boost_test_eval/capitals_boost_test" "$work/testing-pkg-config" || die "the gtest example built with pkg-config"

step "purge"
echo "every check passed; the packages are purged on exit"
