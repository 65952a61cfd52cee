# Every dependency comes from Debian bookworm packages (packaging/install-deps.sh installs them).
find_package(Boost 1.81 REQUIRED COMPONENTS json unit_test_framework)
find_package(TBB REQUIRED)
find_package(Threads REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)
find_package(fmt REQUIRED)
find_package(OpenSSL REQUIRED)  # SHA-256 for the judge cache key; TLS for judge calls
find_package(PkgConfig REQUIRED)
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)
find_package(SQLite3 REQUIRED)  # the results server's default store (krino serve)
pkg_check_modules(LIBPQ REQUIRED IMPORTED_TARGET libpq)  # the results server's PostgreSQL store
# OTLP/HTTP protobuf trace ingestion: protoc compiles third_party/opentelemetry-proto, the lite runtime reads it.
find_package(Protobuf REQUIRED)
# Unicode lower-casing and white space as Python's str.lower()/str.split() (the OpenJudge graders).
find_package(ICU REQUIRED COMPONENTS uc)
find_path(VALIJSON_INCLUDE_DIR valijson/validator.hpp REQUIRED)
add_library(krino_valijson INTERFACE)
target_include_directories(krino_valijson SYSTEM INTERFACE "${VALIJSON_INCLUDE_DIR}")
# Without this valijson calls abort() on an unusable schema instead of throwing, and one bad plugin
# would take the host down. Set here, once, so every user of valijson in a binary agrees.
target_compile_definitions(krino_valijson INTERFACE VALIJSON_USE_EXCEPTIONS=1)
