#include "krino/core/runner/file_upload.hpp"

#include "krino/core/common/error.hpp"
#include "krino/core/runner/component_factory.hpp"

#include <krino/json_parse.hpp>

#include <fcntl.h>
#include <stdio.h>

#include <cerrno>
#include <exception>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace krino::core {
namespace {

bool is_spool_record(std::string_view line) {
  return line.rfind("{\"schema\":\"krino.spool/1\"", 0) == 0;
}

std::string first_line(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw usage_error("cannot read '" + path + "': " + std::strerror(errno));
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
  }
  throw usage_error("'" + path + "' holds no events and no spool records");
}

std::string string_member_of(const std::string& line, const char* key) {
  boost::system::error_code ec;
  const boost::json::value value = krino::json::parse(line, ec);
  if (ec || !value.is_object()) return {};
  const boost::json::value* member = value.as_object().if_contains(key);
  return member != nullptr && member->is_string() ? std::string(member->as_string()) : std::string();
}

std::string from_environment(const UploadRequest& request, const char* variable) {
  if (!request.environment) return {};
  const auto value = request.environment(variable);
  return value && value->find_first_not_of(" \t\r\n") != std::string::npos ? *value : std::string();
}

std::string millis_now() {
  return std::to_string(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

// Renames without replacing anything: FILE.uploaded, else FILE.uploaded.<millis>.
std::string rename_uploaded(const std::string& path) {
  for (const std::string& target : {path + ".uploaded", path + ".uploaded." + millis_now()}) {
    if (::renameat2(AT_FDCWD, path.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0) return target;
    if (errno != EEXIST) break;
  }
  throw runtime_error("every record of '" + path + "' was sent, but the file could not be renamed: " +
                      std::strerror(errno) + "; do not upload it again");
}

void check_lines(const std::string& path, bool spool) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw usage_error("cannot read '" + path + "': " + std::strerror(errno));
  std::string line;
  uint64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    boost::system::error_code ec;
    const boost::json::value value = krino::json::parse(line, ec);
    if (ec || !value.is_object()) throw usage_error(where + "not a JSON object (a line cut short by a crash?)");
    if (spool != is_spool_record(line))
      throw usage_error(where + (spool ? "an event in a spool file" : "a spool record in a file of events"));
  }
}

}  // namespace

UploadResult upload_file(const PluginRegistry& registry, const HostServices& host, const UploadRequest& request) {
  const std::string head = first_line(request.path);
  UploadResult result;
  result.spool = is_spool_record(head);

  std::string server = !request.server.empty() ? request.server : from_environment(request, "KRINO_SERVER_URL");
  std::string project = !request.project.empty() ? request.project : from_environment(request, "KRINO_PROJECT");
  if (result.spool && server.empty()) server = string_member_of(head, "server");
  if (result.spool && project.empty()) project = string_member_of(head, "project");
  if (server.empty()) throw usage_error("krino upload needs the server: --server URL or KRINO_SERVER_URL");
  if (project.empty()) throw usage_error("krino upload needs the project: --project NAME or KRINO_PROJECT");

  ComponentUse use;
  use.component = "server";
  use.options["url"] = server;
  use.options["project"] = project;
  if (!request.experiment.empty()) use.options["experiment"] = request.experiment;
  if (!request.api_key.empty()) use.options["api_key"] = request.api_key;
  if (request.allow_loss) use.options["allow_loss"] = true;
  if (result.spool) {
    // Never the file being read: records that fail again go to a spool of their own.
    result.new_spool = request.path + ".failed-" + millis_now();
    use.options["spool"] = result.new_spool;
  }

  // Every line is checked before anything is sent: a file that is wrong half-way must not leave a
  // run half-uploaded.
  check_lines(request.path, result.spool);

  std::ifstream in(request.path, std::ios::binary);
  if (!in) throw usage_error("cannot read '" + request.path + "': " + std::strerror(errno));
  std::exception_ptr undelivered;
  {
    const std::unique_ptr<ReporterHandle> reporter = make_reporter(registry, use, host.host());
    std::string line;
    while (std::getline(in, line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      reporter->on_event(line);
    }
    try {
      reporter->flush();  // throws when items did not reach the server
    } catch (const KrinoError&) {
      undelivered = std::current_exception();
    }
  }
  if (result.spool) {
    // Every record is now on the server or in the new spool: the old file must not be sent again
    // (a local run would be created twice).
    std::error_code ec;
    if (!std::filesystem::exists(result.new_spool, ec)) result.new_spool.clear();
    result.renamed_to = rename_uploaded(request.path);
  }
  if (undelivered) std::rethrow_exception(undelivered);
  return result;
}

}  // namespace krino::core
