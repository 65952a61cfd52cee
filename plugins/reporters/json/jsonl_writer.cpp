#include "jsonl_writer.hpp"

#include <krino/io/errno_status.hpp>
#include <krino/io/file_sync.hpp>
#include <krino/plugin.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace krino::jsonl {
namespace {

bool is_json_whitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

JsonlWriter::JsonlWriter(const std::string& path, bool append, std::size_t buffer_size)
    : path_(path), capacity_(buffer_size > 0 ? buffer_size : 1) {
  if (path.empty()) throw krino::invalid_argument("the output path is empty");
  if (path == "-") {
    fd_ = STDOUT_FILENO;
    owns_fd_ = false;
  } else {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(parent, ec);
      if (ec)
        throw krino::Error(io::status_from_errno(ec.value()),
                           "cannot create directory '" + parent.string() + "' for '" + path + "': " + ec.message());
    }
    const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
    do {
      fd_ = ::open(path.c_str(), flags, 0666);
    } while (fd_ < 0 && errno == EINTR);
    if (fd_ < 0) {
      const int error = errno;
      throw krino::Error(io::status_from_errno(error),
                         "cannot open '" + path + "' for writing: " + io::errno_text(error));
    }
    owns_fd_ = true;
  }
  buffer_.reserve(capacity_);
}

JsonlWriter::~JsonlWriter() {
  try {
    flush();
  } catch (...) {
    // Nowhere to report it from a destructor; flush() is where errors are seen.
  }
  if (owns_fd_) ::close(fd_);
}

void JsonlWriter::write_line(std::string_view document) {
  while (!document.empty() && is_json_whitespace(document.front())) document.remove_prefix(1);
  while (!document.empty() && is_json_whitespace(document.back())) document.remove_suffix(1);
  if (document.empty()) throw krino::invalid_argument("cannot write an empty document as a JSON line");

  const std::size_t line_size = document.size() + 1;
  if (!buffer_.empty() && buffer_.size() + line_size > capacity_) flush();

  const bool has_break = std::memchr(document.data(), '\n', document.size()) != nullptr ||
                         std::memchr(document.data(), '\r', document.size()) != nullptr;
  if (has_break) {
    for (char c : document) buffer_ += (c == '\n' || c == '\r') ? ' ' : c;
  } else {
    buffer_.append(document.data(), document.size());
  }
  buffer_ += '\n';

  if (buffer_.size() > capacity_) {
    // One line larger than the whole buffer: out at once, then give the memory back.
    flush();
    std::string().swap(buffer_);
    buffer_.reserve(capacity_);
  }
}

void JsonlWriter::flush() {
  if (buffer_.empty()) return;
  // Text other code printed through stdio goes first, in the order it was written.
  if (fd_ == STDOUT_FILENO) std::fflush(stdout);
  std::size_t written = 0;
  while (written < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + written, buffer_.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      // Keep what was not written: a later flush may still complete the file.
      buffer_.erase(0, written);
      throw krino::Error(io::status_from_errno(error),
                         "cannot write to '" + path_ + "': " + io::errno_text(error));
    }
    written += static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

void JsonlWriter::sync() {
  if (owns_fd_) io::sync_regular_file(fd_, "'" + path_ + "'");
}

}  // namespace krino::jsonl
