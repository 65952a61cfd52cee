// The resolvers through the C ABI, as the host sees them: the helper's trampolines linked into the
// test, and the built krino-files.so loaded with dlopen.
#include "csv_resolver.hpp"
#include "files_test_support.hpp"
#include "json_resolver.hpp"
#include "jsonl_resolver.hpp"
#include "test_paths.hpp"

#include <krino/plugin.h>

#include <boost/test/unit_test.hpp>

#include <dlfcn.h>

#include <cstring>
#include <fstream>
#include <string>

using namespace krino::files;
using namespace krino::files::testing;

namespace {

// A host-side sink (the SDK helper's own).
using TestSink = krino::detail::StringSink;

struct AbiItem {
  int32_t outcome;
  std::string location;
  std::string example;  // decoded, when the record decodes
  std::string error;
};

struct AbiRun {
  krino_status open_status;
  std::string info;
  std::string open_error;
  std::vector<AbiItem> items;
};

AbiRun run_through_vtable(const krino_dataset_resolver_vtable& vt, const std::string& uri, const std::string& options) {
  AbiRun run{};
  TestSink info, error;
  void* stream = nullptr;
  run.open_status = vt.open(nullptr, uri.c_str(), options.data(), options.size(), &stream, &info.sink, &error.sink);
  run.info = info.text;
  run.open_error = error.text;
  if (run.open_status != KRINO_OK) return run;
  for (;;) {
    TestSink record, location, next_error;
    int32_t outcome = -1;
    const krino_status status = vt.next(stream, &record.sink, &location.sink, &outcome, &next_error.sink);
    BOOST_TEST_REQUIRE(status == KRINO_OK);
    if (outcome == KRINO_NEXT_END) break;
    AbiItem item{outcome, location.text, "", next_error.text};
    if (outcome == KRINO_NEXT_RECORD) {
      TestSink example, decode_error;
      if (vt.decode(stream, record.text.data(), record.text.size(), &example.sink, &decode_error.sink) == KRINO_OK)
        item.example = example.text;
      else
        item.error = decode_error.text;
    }
    run.items.push_back(std::move(item));
  }
  vt.close(stream);
  return run;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(resolver_abi)

BOOST_AUTO_TEST_CASE(jsonl_through_the_trampolines) {
  TempDir dir;
  const std::string path = dir.write("t.jsonl", "{\"input\":\"a\",\"actualOutput\":\"b\"}\n{oops}\n{\"id\":3}\n");
  const auto* vt = krino::detail::ResolverTrampolines<JsonlResolver>::vtable("file", ".jsonl,.ndjson");
  BOOST_TEST(std::strcmp(vt->extensions, ".jsonl,.ndjson") == 0);
  BOOST_TEST_REQUIRE(vt->decode != nullptr);
  const AbiRun run = run_through_vtable(*vt, "file:" + path, "{}");
  BOOST_TEST_REQUIRE(run.open_status == KRINO_OK);
  BOOST_TEST(json(run.info.c_str()) == json(R"({"name":"t","description":"","sizeHint":3})"));
  BOOST_TEST_REQUIRE(run.items.size() == 3u);
  BOOST_TEST(json(run.items[0].example.c_str()) ==
             json(R"({"inputs":{"input":"a"},"expectedOutputs":{},"metadata":{},"actualOutputs":{"output":"b"}})"));
  BOOST_TEST(run.items[1].location == path + ":2");
  BOOST_TEST(run.items[1].example.empty());
  BOOST_TEST(run.items[1].error.rfind("invalid JSON at column 2", 0) == 0);
  BOOST_TEST(json(run.items[2].example.c_str()) == json(R"({"id":"3","inputs":{},"expectedOutputs":{},"metadata":{}})"));
}

BOOST_AUTO_TEST_CASE(open_failures_through_the_trampolines_carry_status_and_message) {
  TempDir dir;
  const std::string missing = dir.path("none.csv");
  const auto* vt = krino::detail::ResolverTrampolines<CsvResolver>::vtable("file", ".csv");
  const AbiRun run = run_through_vtable(*vt, missing, "{}");
  BOOST_TEST(run.open_status == KRINO_NOT_FOUND);
  BOOST_TEST(run.open_error == "cannot open '" + missing + "': No such file or directory");
}

BOOST_AUTO_TEST_CASE(a_broken_json_structure_fails_open_naming_the_line) {
  TempDir dir;
  const std::string path = dir.write("b.json", "{\"name\":\"b\",\"examples\":[\n{},\n{\"a\":]}\n]}");
  const auto* vt = krino::detail::ResolverTrampolines<JsonResolver>::vtable("file", ".json");
  const AbiRun run = run_through_vtable(*vt, path, "{}");
  BOOST_TEST(run.open_status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(run.open_error == path + ":3: ']' closes a bracket that needs '}'");
}

BOOST_AUTO_TEST_CASE(a_structure_broken_after_open_fails_next_naming_the_line) {
  // The file changes under a running stream (it was sound when open() scanned it): next() must
  // fail with a status, not invent records.
  TempDir dir;
  std::string content = "[\n";
  const int count = 30000;
  for (int i = 0; i < count; ++i)
    content += std::string(i ? ",\n" : "") + R"({"id": )" + std::to_string(i) + R"(, "input": ")" + std::string(80, 'q') + "\"}";
  content += "\n]\n";
  const std::string path = dir.write("changing.json", content);
  const auto* vt = krino::detail::ResolverTrampolines<JsonResolver>::vtable("file", ".json");
  TestSink info, error;
  void* stream = nullptr;
  BOOST_TEST_REQUIRE(vt->open(nullptr, path.c_str(), "{}", 2, &stream, &info.sink, &error.sink) == KRINO_OK);

  const size_t broken = content.find(R"({"id": 25000,)");
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(broken));
    file.put('[');
  }
  int records = 0;
  krino_status status = KRINO_OK;
  std::string message;
  for (;;) {
    TestSink record, location, next_error;
    int32_t outcome = -1;
    status = vt->next(stream, &record.sink, &location.sink, &outcome, &next_error.sink);
    if (status != KRINO_OK) {
      message = next_error.text;
      break;
    }
    if (outcome == KRINO_NEXT_END) break;
    ++records;
  }
  vt->close(stream);
  BOOST_TEST(status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(records == 25000);
  BOOST_TEST(message == path + ":25002: '}' closes a bracket that needs ']'");
}

BOOST_AUTO_TEST_CASE(the_built_plugin_describes_and_serves_its_three_resolvers) {
  const std::string library = std::string(KRINO_PLUGIN_BUILD_DIR) + "/krino-files.so";
  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  BOOST_TEST_REQUIRE(handle != nullptr, ::dlerror());
  auto entry = reinterpret_cast<krino_plugin_entry_fn>(::dlsym(handle, KRINO_PLUGIN_ENTRY_SYMBOL));
  BOOST_TEST_REQUIRE(entry != nullptr);
  krino_host_info host{};
  host.struct_size = sizeof host;
  host.abi_major = KRINO_ABI_MAJOR;
  host.abi_minor = KRINO_ABI_MINOR;
  host.host_name = "test";
  host.host_version = "0";
  TestSink error;
  const krino_plugin_descriptor* plugin = entry(&host, &error.sink);
  BOOST_TEST_REQUIRE(plugin != nullptr, error.text);
  BOOST_TEST(std::string(plugin->id) == "krino.files");
  BOOST_TEST_REQUIRE(plugin->component_count == 3u);

  const char* expected[][4] = {{"krino.files.jsonl", "jsonl", ".jsonl,.ndjson", ""},
                               {"krino.files.json", "json", ".json", ""},
                               {"krino.files.csv", "csv", ".csv", "delimiter"}};
  for (size_t i = 0; i < 3; ++i) {
    const krino_component& c = plugin->components[i];
    BOOST_TEST(c.kind == KRINO_KIND_DATASET_RESOLVER);
    BOOST_TEST(std::string(c.id) == expected[i][0]);
    BOOST_TEST(std::string(c.name) == expected[i][1]);
    BOOST_TEST(std::string(c.version) == "1.0.0");
    const auto* vt = static_cast<const krino_dataset_resolver_vtable*>(c.vtable);
    BOOST_TEST(std::string(vt->schemes) == "file");
    BOOST_TEST(std::string(vt->extensions) == expected[i][2]);
    BOOST_TEST(vt->decode != nullptr);
    const boost::json::object schema = boost::json::parse(c.config_schema).as_object();
    BOOST_TEST(schema.at("$schema") == "http://json-schema.org/draft-07/schema#");
    BOOST_TEST(schema.at("additionalProperties") == false);
    for (const auto& property : schema.at("properties").as_object())
      BOOST_TEST(property.value().as_object().contains("description"), property.key());
    if (*expected[i][3] != '\0') BOOST_TEST(schema.at("properties").at(expected[i][3]).at("default") == ",");
  }

  // One real stream through the loaded library.
  TempDir dir;
  const std::string path = dir.write("p.csv", "input,output\nq,a\n");
  const AbiRun run = run_through_vtable(*static_cast<const krino_dataset_resolver_vtable*>(plugin->components[2].vtable),
                                        "file://" + path, R"({"name":"loaded"})");
  BOOST_TEST_REQUIRE(run.open_status == KRINO_OK, run.open_error);
  BOOST_TEST(json(run.info.c_str()) == json(R"({"name":"loaded","description":"","sizeHint":1})"));
  BOOST_TEST_REQUIRE(run.items.size() == 1u);
  BOOST_TEST(run.items[0].location == path + ":2");
  BOOST_TEST(json(run.items[0].example.c_str()) ==
             json(R"({"inputs":{"input":"q"},"expectedOutputs":{"output":"a"},"metadata":{}})"));
  // The library stays loaded: the host never unloads plugins mid-process either.
}

BOOST_AUTO_TEST_SUITE_END()
