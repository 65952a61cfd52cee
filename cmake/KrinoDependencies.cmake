# Every dependency comes from Debian bookworm packages (packaging/install-deps.sh installs them).
find_package(Boost 1.81 REQUIRED COMPONENTS json unit_test_framework)
find_package(TBB REQUIRED)
find_package(Threads REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)
find_package(fmt REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)
find_path(VALIJSON_INCLUDE_DIR valijson/validator.hpp REQUIRED)
add_library(krino_valijson INTERFACE)
target_include_directories(krino_valijson SYSTEM INTERFACE "${VALIJSON_INCLUDE_DIR}")
# valijson's Boost.JSON adapter uses exceptions for type errors; nothing else to configure.
