// `krino dataset push | pull | diff`: server datasets from the command line (docs/cli.md). push reads
// a local dataset with the same resolvers `krino run` uses and sends it as the next version; pull
// writes a version as JSON Lines `krino run` reads back; diff lists, by dataset item id, what one
// version changes against another, for a pull request to show.
#include "commands.hpp"
#include "dataset_client.hpp"
#include "exit_codes.hpp"

#include "krino/core/common/cancellation.hpp"
#include "krino/core/common/error.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/runner/dataset_stream.hpp"

#include <krino/io/atomic_file.hpp>
#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <boost/json.hpp>
#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <filesystem>

namespace krino::cli {

namespace {

// "name@3" or "name@latest" into its parts; a usage error naming `ref` otherwise.
std::pair<std::string, std::optional<std::int64_t>> dataset_ref(const std::string& ref) {
  const std::size_t at = ref.rfind('@');
  if (at == std::string::npos || at == 0) throw core::usage_error("'" + ref + "' is not a dataset version: write name@N or name@latest");
  const std::string version = ref.substr(at + 1);
  if (version == "latest") return {ref.substr(0, at), std::nullopt};
  std::int64_t number = 0;
  const auto [end, ec] = std::from_chars(version.data(), version.data() + version.size(), number);
  if (version.empty() || ec != std::errc() || end != version.data() + version.size() || number < 1)
    throw core::usage_error("'" + ref + "': the version must be a positive whole number or 'latest'");
  return {ref.substr(0, at), number};
}

// One example of the local dataset as a server item: {id?, inputs, expectedOutputs, metadata}.
void append_server_item(std::string& out, const std::string& example_json, const std::string& location) {
  boost::system::error_code ec;
  const boost::json::value example = krino::json::parse(example_json, ec);
  if (ec || !example.is_object()) throw core::runtime_error(location + ": the example is not a JSON object");
  const boost::json::object& object = example.as_object();
  out += '{';
  if (const auto* id = object.if_contains("id"); id != nullptr && !id->is_null()) {
    out += "\"id\":";
    if (id->is_string()) krino::json::append_json_string(out, id->as_string());
    else krino::json::append_json_string(out, krino::json::to_compact_json(*id));  // a numbered example keeps its number as text
    out += ',';
  }
  out += "\"inputs\":";
  const auto* inputs = object.if_contains("inputs");
  out += inputs != nullptr && inputs->is_object() ? krino::json::to_compact_json(*inputs) : std::string("{}");
  for (const char* key : {"expectedOutputs", "metadata"}) {
    if (const auto* value = object.if_contains(key); value != nullptr && value->is_object()) {
      out.append(",\"").append(key).append("\":");
      out += krino::json::to_compact_json(*value);
    }
  }
  out += '}';
}

int push(const DatasetArguments& args) {
  if (args.name.empty()) throw core::usage_error("krino dataset push needs --name NAME (the server dataset to add a version to)");
  DatasetClient client(args.server, args.api_key);
  core::Cancellation cancellation;
  core::HostServices host(cancellation, stderr, args.plugins.verbosity > 0 ? KRINO_LOG_INFO : KRINO_LOG_WARNING);
  core::PluginRegistry registry;
  args.plugins.load(registry, host);
  core::DatasetStream stream(core::choose_resolver(registry, args.file, ""), host.host(), args.file, {});
  std::string body = "{";
  if (args.description) {
    body += "\"description\":";
    krino::json::append_json_string(body, *args.description);
    body += ',';
  }
  body += "\"items\":[";
  std::size_t count = 0;
  for (;;) {
    core::DatasetRecord record = stream.next();
    if (record.kind == core::DatasetRecord::Kind::end) break;
    const std::string where = record.location.empty() ? args.file + " record " + std::to_string(count) : record.location;
    if (record.kind == core::DatasetRecord::Kind::bad) throw core::runtime_error(where + ": " + record.error);
    auto example = stream.decode(record.bytes);
    if (!example.ok()) throw core::runtime_error(where + ": " + example.error().message);
    if (count++ > 0) body += ',';
    append_server_item(body, example.value(), where);
  }
  body += "]}";
  if (count == 0) throw core::runtime_error(args.file + ": no examples to push");
  const bool created = client.create(args.name, args.description);
  const std::int64_t version = client.add_version(args.name, body);
  std::printf("pushed %s@%lld: %zu items%s\n", args.name.c_str(), static_cast<long long>(version), count, created ? " (new dataset)" : "");
  return kSuccess;
}

// A version as JSON Lines of krino.example/1: what `krino run` reads back (with the ids).
std::string as_jsonl(const ServerDatasetVersion& version) {
  std::string out;
  for (const ServerDatasetItem& item : version.items) {
    out += "{\"id\":";
    krino::json::append_json_string(out, item.id);
    out.append(",\"inputs\":").append(item.inputs);
    out.append(",\"expectedOutputs\":").append(item.expected_outputs == "null" ? "{}" : item.expected_outputs);
    out.append(",\"metadata\":").append(item.metadata == "null" ? "{}" : item.metadata);
    out += "}\n";
  }
  return out;
}

int pull(const DatasetArguments& args) {
  if (args.refs.size() != 1) throw core::usage_error("krino dataset pull takes one dataset version: name@N or name@latest");
  const auto [name, number] = dataset_ref(args.refs[0]);
  if (!args.output.empty() && args.output != "-" && std::filesystem::exists(args.output) && !args.force)
    throw core::usage_error(args.output + " exists: krino dataset pull does not overwrite it without --force");
  DatasetClient client(args.server, args.api_key);
  const ServerDatasetVersion version = client.read(name, number);
  const std::string text = as_jsonl(version);
  if (args.output.empty() || args.output == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    krino::io::AtomicFile out(args.output);
    out.write(text);
    out.commit();
    std::fprintf(stderr, "pulled %s@%lld: %zu items into %s\n", name.c_str(), static_cast<long long>(version.version), version.items.size(),
                 args.output.c_str());
  }
  return kSuccess;
}

// The server compares the versions (core's one diff, store/dataset_diff.hpp); this prints it.
int diff(const DatasetArguments& args) {
  if (args.refs.size() != 2) throw core::usage_error("krino dataset diff takes two dataset versions: name@3 name@4");
  const auto [from_name, from_number] = dataset_ref(args.refs[0]);
  const auto [to_name, to_number] = dataset_ref(args.refs[1]);
  DatasetClient client(args.server, args.api_key);
  const std::string answer = client.diff(from_name, from_number, to_name, to_number);
  boost::system::error_code ec;
  const boost::json::value parsed = krino::json::parse(answer, ec);
  const boost::json::object* diff = !ec ? parsed.if_object() : nullptr;
  const auto list = [diff](const char* key) -> const boost::json::array& {
    const boost::json::value* value = diff != nullptr ? diff->if_contains(key) : nullptr;
    if (value == nullptr || !value->is_array()) throw core::runtime_error("krino dataset diff: the server's answer has no '" + std::string(key) + "' list");
    return value->as_array();
  };
  const auto count = [diff](const char* key) {
    const boost::json::value* value = diff != nullptr ? diff->if_contains(key) : nullptr;
    return value != nullptr && value->is_int64() ? value->as_int64() : std::int64_t{0};
  };
  const auto text = [](const boost::json::value& entry, const char* key) {
    const boost::json::value* value = entry.is_object() ? entry.as_object().if_contains(key) : nullptr;
    if (value == nullptr) return std::string("null");
    return value->is_string() ? std::string(value->as_string()) : krino::json::to_compact_json(*value);
  };
  const boost::json::array& added = list("added");
  const boost::json::array& removed = list("removed");
  const boost::json::array& changed = list("changed");
  if (const auto* truncated = diff->if_contains("truncated"); truncated != nullptr && truncated->is_bool() && truncated->as_bool())
    std::fprintf(stderr, "krino dataset diff: the lists stop at the server's limit of 1,000,000 entries each (the counts are whole)\n");
  if (args.json) {
    std::fputs(answer.c_str(), stdout);
    std::fputc('\n', stdout);
    return kSuccess;
  }
  std::printf("%s -> %s: %lld added, %lld removed, %lld expected outputs changed\n", text(parsed, "from").c_str(), text(parsed, "to").c_str(),
              static_cast<long long>(count("addedCount")), static_cast<long long>(count("removedCount")), static_cast<long long>(count("changedCount")));
  for (const auto& item : added) std::printf("+ %s %s\n", text(item, "id").c_str(), text(item, "inputs").c_str());
  for (const auto& item : removed) std::printf("- %s %s\n", text(item, "id").c_str(), text(item, "inputs").c_str());
  for (const auto& item : changed)
    std::printf("~ %s expected %s -> %s\n", text(item, "id").c_str(), text(item, "before").c_str(), text(item, "after").c_str());
  if (const std::int64_t inputs_changed = count("inputsChanged"); inputs_changed > 0)
    std::printf("(%lld items kept their id with changed inputs)\n", static_cast<long long>(inputs_changed));
  return kSuccess;
}

}  // namespace

int dataset_command(const DatasetArguments& args, const std::string& action) {
  if (action == "push") return push(args);
  if (action == "pull") return pull(args);
  return diff(args);
}

}  // namespace krino::cli
