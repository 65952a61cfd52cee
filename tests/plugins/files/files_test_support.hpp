// Shared by the files plugin tests: real temporary files, and a resolver driven to its end the way
// the host drives it (next() serially, decode() for every record).
#ifndef KRINO_TESTS_FILES_TEST_SUPPORT_HPP
#define KRINO_TESTS_FILES_TEST_SUPPORT_HPP

#include "../../support/scratch_directory.hpp"

#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace krino {
// How Boost.Test prints a next() outcome when a check fails.
inline std::ostream& boost_test_print_type(std::ostream& out, Next next) {
  return out << (next == Next::record ? "record" : next == Next::end ? "end" : "bad");
}
}  // namespace krino

namespace krino::files::testing {

// The tests' scratch directory (tests/support/scratch_directory.hpp), with files written byte for byte.
class TempDir : public krino::test::ScratchDirectory {
 public:
  // Writes `content` byte for byte to `name` and returns its path.
  std::string write(const std::string& name, const std::string& content) const {
    const std::string written = file(name);
    std::ofstream out(written, std::ios::binary);
    out << content;
    if (!out) throw std::runtime_error("cannot write " + written);
    return written;
  }
  std::string path(const std::string& name) const { return file(name); }
};

// One record as the host would see it: an example, or the reason it is an item error.
struct Item {
  bool ok = false;
  std::string location;
  boost::json::object example;  // when ok
  std::string error;            // when not ok (from next() or decode())
};

struct Drained {
  DatasetInfo info;
  std::vector<Item> items;
};

inline boost::json::object parse_options(const std::string& options_json) {
  return boost::json::parse(options_json).as_object();
}

// Opens `uri` with resolver R and reads it to the end.
template <class R>
Drained drain(const std::string& uri, const std::string& options_json = "{}") {
  Drained out;
  R resolver(nullptr, uri, Config(parse_options(options_json)), out.info);
  for (;;) {
    std::string record;
    std::string location;
    std::string error;
    const Next next = resolver.next(record, location, error);
    if (next == Next::end) break;
    Item item;
    item.location = location;
    if (next == Next::bad) {
      item.error = error;
    } else {
      try {
        if constexpr (std::is_convertible_v<decltype(resolver.decode(record)), std::string_view>)
          item.example = boost::json::parse(resolver.decode(record)).as_object();
        else
          item.example = resolver.decode(record);
        item.ok = true;
      } catch (const Error& e) {
        item.error = e.what();
      }
    }
    out.items.push_back(std::move(item));
  }
  return out;
}

// The message of the krino::Error that `body` throws, or "" if it throws none.
template <class Body>
std::string error_of(Body&& body) {
  try {
    body();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

template <class Body>
krino_status status_of(Body&& body) {
  try {
    body();
  } catch (const Error& e) {
    return e.code();
  }
  return KRINO_OK;
}

inline boost::json::value json(const char* text) { return boost::json::parse(text); }

}  // namespace krino::files::testing

#endif  // KRINO_TESTS_FILES_TEST_SUPPORT_HPP
