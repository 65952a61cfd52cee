#pragma once
// A fresh directory under the system's temporary directory, removed with everything in it when the
// object goes: the one scratch folder of the tests.
#include <boost/test/unit_test.hpp>

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

namespace krino::test {

class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "krino-test-XXXXXX").string();
    BOOST_REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~ScratchDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  const std::filesystem::path& path() const { return path_; }
  // The path of `name` inside, as a string (for command lines and experiment files).
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Names of the entries in the directory (to check that no temporary file is left behind).
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(path_)) names.push_back(entry.path().filename().string());
    return names;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace krino::test
