#include "spool_file.hpp"

#include <krino/io/errno_status.hpp>
#include <krino/io/file_sync.hpp>
#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>
#include <krino/plugin.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

namespace krino::server {
namespace {

void append_member(std::string& out, std::string_view key, std::string_view text) {
  out += ",\"";
  out += key;
  out += "\":";
  krino::json::append_json_string(out, text);
}

std::string string_member(const boost::json::object& object, std::string_view key, bool required) {
  const boost::json::value* value = object.if_contains(key);
  if (value == nullptr || value->is_null()) {
    if (required) throw krino::invalid_argument("the spool record has no \"" + std::string(key) + "\"");
    return {};
  }
  if (!value->is_string()) throw krino::invalid_argument("the spool record's \"" + std::string(key) + "\" is not a string");
  return std::string(value->as_string());
}

}  // namespace

std::string spool_line(const SpoolRecord& record) {
  std::string line = "{\"schema\":\"";
  line.append(kSpoolSchema).append("\"");
  append_member(line, "kind", record.kind);
  append_member(line, "server", record.target.server);
  append_member(line, "project", record.target.project);
  append_member(line, "experiment", record.target.experiment);
  line.append(",\"metadata\":").append(record.target.metadata_json.empty() ? "{}" : record.target.metadata_json);
  if (!record.target.dataset_version.empty()) append_member(line, "datasetVersion", record.target.dataset_version);
  append_member(line, "runId", record.target.run_id);
  if (record.kind == "items") {
    append_member(line, "idempotencyKey", record.idempotency_key);
    line.append(",\"items\":").append(record.items_json);
  } else {
    append_member(line, "status", record.status);
  }
  line += '}';
  return line;
}

bool is_spool_line(std::string_view line) {
  // The writer puts the schema first; a line that starts otherwise is an event, or not ours.
  const std::size_t start = line.find_first_not_of(" \t\r");
  return start != std::string_view::npos && line.substr(start).rfind("{\"schema\":\"krino.spool/1\"", 0) == 0;
}

SpoolRecord read_spool_line(std::string_view line) {
  boost::system::error_code ec;
  const boost::json::value value = krino::json::parse(line, ec);
  if (ec || !value.is_object()) throw krino::invalid_argument("the spool record is not a JSON object");
  const boost::json::object& object = value.as_object();
  if (string_member(object, "schema", true) != kSpoolSchema)
    throw krino::invalid_argument("the spool record's schema is not krino.spool/1");
  SpoolRecord record;
  record.kind = string_member(object, "kind", true);
  record.target.server = string_member(object, "server", false);
  record.target.project = string_member(object, "project", false);
  record.target.experiment = string_member(object, "experiment", true);
  record.target.run_id = string_member(object, "runId", true);
  record.target.dataset_version = string_member(object, "datasetVersion", false);
  if (const boost::json::value* metadata = object.if_contains("metadata"); metadata != nullptr && !metadata->is_null()) {
    if (!metadata->is_object()) throw krino::invalid_argument("the spool record's \"metadata\" is not an object");
    record.target.metadata_json = krino::json::to_compact_json(*metadata);
  }
  if (record.kind == "items") {
    record.idempotency_key = string_member(object, "idempotencyKey", true);
    const boost::json::value* items = object.if_contains("items");
    if (items == nullptr || !items->is_array() || items->as_array().empty())
      throw krino::invalid_argument("the spool record's \"items\" is not a non-empty array");
    // Written again from the parsed values: krino::json::parse and to_compact_json keep every number.
    record.items_json = krino::json::to_compact_json(*items);
    record.item_count = items->as_array().size();
  } else if (record.kind == "status") {
    record.status = string_member(object, "status", true);
  } else {
    throw krino::invalid_argument("the spool record's kind '" + record.kind + "' is neither items nor status");
  }
  return record;
}

SpoolFile::~SpoolFile() {
  if (fd_ >= 0) ::close(fd_);
}

void SpoolFile::append(const SpoolRecord& record) {
  if (fd_ < 0) {
    const std::filesystem::path parent = std::filesystem::path(path_).parent_path();
    if (!parent.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(parent, ec);
    }
    do {
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    } while (fd_ < 0 && errno == EINTR);
    if (fd_ < 0) {
      const int error = errno;
      throw krino::Error(io::status_from_errno(error), "cannot open the spool '" + path_ + "': " + io::errno_text(error));
    }
  }
  std::string line = spool_line(record);
  line += '\n';
  // One write(2) per record (O_APPEND): a crash leaves whole records, at worst a last partial line
  // that `krino upload` reports by its line number.
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      throw krino::Error(io::status_from_errno(error), "cannot write to the spool '" + path_ + "': " + io::errno_text(error));
    }
    written += static_cast<std::size_t>(n);
  }
  io::sync_regular_file(fd_, "the spool '" + path_ + "'");
}

}  // namespace krino::server
