// The experiment file loader over arbitrary bytes: the text as an experiment file (YAML to JSON,
// shorthands, the parsed configuration), and the same text as one `--set key=value` override.
// A bad file is a KrinoError, which `krino run` prints and exits 2 on: expected. What the harness
// finds is a crash, a sanitizer report, a hang or a runaway allocation (R2, R3 and R12 of issue 14
// were all three).
#include "krino/core/common/error.hpp"
#include "krino/core/experiment/config_document.hpp"
#include "krino/core/experiment/experiment_config.hpp"

#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    boost::json::value document = krino::core::parse_config_text(text, "fuzz.yaml");
    krino::core::normalize_experiment_document(document);
    (void)krino::core::parse_experiment(document, "/nonexistent/fuzz");
  } catch (const std::exception&) {
  }
  try {
    boost::json::value document = boost::json::object{{"runs", 1}};
    krino::core::apply_override(document, text);
  } catch (const std::exception&) {
  }
  return 0;
}
