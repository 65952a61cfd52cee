#include "krino/core/common/atomic_file.hpp"

#include "krino/core/common/error.hpp"

#include <krino/io/atomic_file.hpp>

#include <system_error>

namespace krino::core {

void write_file_atomically(const std::filesystem::path& path, std::string_view content, unsigned mode) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw runtime_error("cannot create the directory of '" + path.string() + "': " + ec.message());
  try {
    ::krino::io::AtomicFile file(path, static_cast<mode_t>(mode));
    file.write(content);
    file.commit();
  } catch (const ::krino::Error& e) {
    throw runtime_error(e.what());  // the message names the path and the reason
  }
}

}  // namespace krino::core
