#pragma once
// The one exception libkrino-testing throws: loading plugins, making an evaluator from its options,
// reading a dataset, or using an example whose dataset could not be read. The message says what and
// where (the plugin, the option, the file and line).
#include "krino/testing/export.hpp"

#include <stdexcept>
#include <string>

namespace krino::testing {

class KRINO_TESTING_API Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace krino::testing
