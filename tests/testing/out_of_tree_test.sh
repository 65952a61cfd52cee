#!/usr/bin/env bash
# libkrino-testing as a user outside the krino tree gets it, without root: the "testing" component
# installed into a scratch prefix with the text and files plugins beside it (as krino-plugins-core
# puts them), then sdk/examples/gtest_eval and sdk/examples/boost_test_eval built as separate CMake
# projects against that prefix (find_package(KrinoTesting)) and the gtest one with pkg-config too, and
# run by examples_test.sh. The library must find the plugins beside itself, wherever the prefix is.
# tests/packaging/deb_test.sh does the same with the installed Debian packages.
# Usage: out_of_tree_test.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$(realpath "$1")
source_dir=$(realpath "$2")
work=$3
die() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"

cmake --install "$build" --component testing --prefix "$prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; die "installing the testing component failed"; }
mkdir -p "$prefix/lib/krino/plugins"
cp "$build/lib/krino/plugins/krino-text.so" "$build/lib/krino/plugins/krino-files.so" "$prefix/lib/krino/plugins/"
unset KRINO_PLUGIN_PATH

# The tree's -fsanitize flags, when it has them (tests/testing/CMakeLists.txt says why).
sanitize=${KRINO_SANITIZER_FLAGS:-}
for example in gtest_eval boost_test_eval; do
    cmake -S "$source_dir/sdk/examples/$example" -B "$work/$example" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS="$sanitize" -DCMAKE_EXE_LINKER_FLAGS="$sanitize" \
        -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$work/$example.log" 2>&1 &&
        cmake --build "$work/$example" >>"$work/$example.log" 2>&1 ||
        { cat "$work/$example.log"; die "building $example against $prefix failed"; }
done
bash "$source_dir/tests/testing/examples_test.sh" "$work/gtest_eval/capitals_gtest" \
    "$work/boost_test_eval/capitals_boost_test" "$work/cmake-run"

# pkg-config: the file finds its prefix from where it lies.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[[ $(pkg-config --variable=libdir krino-testing) -ef $prefix/lib ]] ||
    die "krino-testing.pc: libdir $(pkg-config --variable=libdir krino-testing) is not $prefix/lib"
# shellcheck disable=SC2046  # --cflags/--libs are lists of flags
c++ -std=c++17 -O0 $sanitize -DKRINO_EXAMPLE_DATASET="\"$source_dir/sdk/examples/gtest_eval/capitals.jsonl\"" \
    "$source_dir/sdk/examples/gtest_eval/capitals_test.cpp" $(pkg-config --cflags --libs krino-testing) \
    -Wl,-rpath,"$prefix/lib" -lgtest_main -lgtest -pthread -o "$work/capitals_gtest_pc" ||
    die "building the gtest example with pkg-config krino-testing failed"
bash "$source_dir/tests/testing/examples_test.sh" "$work/capitals_gtest_pc" \
    "$work/boost_test_eval/capitals_boost_test" "$work/pkg-config-run"
echo "ok: out of tree against $prefix"
