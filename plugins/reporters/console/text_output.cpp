#include "text_output.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

namespace krino::console {

FileOutput::FileOutput(std::FILE* file) : file_(file), is_terminal_(file != nullptr && isatty(fileno(file)) == 1) {}

void FileOutput::write(std::string_view text) {
  // A closed or full stream loses console text; that must not fail the evaluation.
  if (file_ != nullptr && !text.empty()) static_cast<void>(std::fwrite(text.data(), 1, text.size(), file_));
}

void FileOutput::flush() {
  if (file_ != nullptr) static_cast<void>(std::fflush(file_));
}

unsigned FileOutput::columns() const {
  if (!is_terminal_) return 0;
  winsize size{};
  if (ioctl(fileno(file_), TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

}  // namespace krino::console
