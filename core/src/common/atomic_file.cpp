#include "krino/core/common/atomic_file.hpp"

#include "krino/core/common/error.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <cstdint>
#include <fstream>
#include <random>
#include <system_error>

namespace krino::core {

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw runtime_error("cannot create the directory of '" + path.string() + "': " + ec.message());
  // Same directory, so the rename stays on one file system; the pid and a random nonce keep two
  // writers apart, processes or threads.
  std::random_device device;
  const uint64_t nonce = (static_cast<uint64_t>(device()) << 32) ^ device();
  std::filesystem::path temporary = path;
  temporary += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(nonce);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw runtime_error("cannot write '" + temporary.string() + "': " + std::strerror(errno));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      std::filesystem::remove(temporary, ec);
      throw runtime_error("cannot write '" + temporary.string() + "'");
    }
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    const std::string reason = ec.message();
    std::filesystem::remove(temporary, ec);
    throw runtime_error("cannot replace '" + path.string() + "': " + reason);
  }
}

}  // namespace krino::core
