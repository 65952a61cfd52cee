// For harnesses whose code under test reads a path, not bytes: one file per process, rewritten
// with each input and removed at exit.
#ifndef KRINO_FUZZ_INPUT_FILE_HPP
#define KRINO_FUZZ_INPUT_FILE_HPP

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace krino::fuzz {

class FuzzInputFile {
 public:
  // `name` ends the file name, so readers that look at the extension see the one they expect.
  explicit FuzzInputFile(const std::string& name) {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::filesystem::path(dir != nullptr && *dir != '\0' ? dir : "/tmp") /
            ("krino-fuzz-" + std::to_string(::getpid()) + "-" + name);
  }
  ~FuzzInputFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  FuzzInputFile(const FuzzInputFile&) = delete;
  FuzzInputFile& operator=(const FuzzInputFile&) = delete;

  // Replaces the file's content with data[0, size) and returns its path.
  const std::string& write(const uint8_t* data, std::size_t size) {
    std::FILE* file = std::fopen(path_.c_str(), "wb");
    if (file == nullptr) throw std::runtime_error("cannot write " + path_.string());
    const bool written = size == 0 || std::fwrite(data, 1, size, file) == size;
    if (std::fclose(file) != 0 || !written) throw std::runtime_error("cannot write " + path_.string());
    path_text_ = path_.string();
    return path_text_;
  }

 private:
  std::filesystem::path path_;
  std::string path_text_;
};

}  // namespace krino::fuzz

#endif  // KRINO_FUZZ_INPUT_FILE_HPP
