// "krino.host.document/1" (sdk: krino/host_document.h): the host parses an item's test case once and
// lends the parse. A C plugin that reads only the parse sees every value exactly (number texts,
// unescaped strings, order); a plugin that ignores the extension scores as before; the C++ helper's
// TestCase builds from the parse the same values it would parse from the bytes.
#include "krino/core/host/call_handle.hpp"
#include "krino/core/host/host_document.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/runner/component_factory.hpp"
#include "krino/core/runner/dataset_stream.hpp"
#include "krino/core/runner/item_processor.hpp"
#include "test_paths.hpp"

#include <krino/json_parse.hpp>
#include <krino/plugin/test_case.hpp>
#include <krino/plugin/test_case_document.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

using namespace krino::core;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

fs::path host_document_plugin(const std::string& name) {
  return fs::path(KRINO_BINARY_DIR) / "tests" / "abi" / "declaring-plugins" / name / ("krino-" + name + ".so");
}

// Values that a parse can get wrong: number texts a double cannot hold, escapes, nesting, empties.
constexpr const char* kHostDocumentCase =
    R"({"inputs":{"input":"caf\u00e9 \"quoted\" back\\slash\nline"},)"
    R"("actualOutputs":{"output":{"n":2102650.0,"big":123456789012345678901234567890,"huge":1e400,"neg":-0,)"
    R"("tenth":0.1,"list":[1,true,false,null,[],{}],"nested":{"a":{"b":[{"c":"d"}]}}}},)"
    R"("expectedOutputs":{"output":"x"},"metadata":{"tools":[]}})";

// The same test case as the reader plugin writes it back: UTF-8 as it is, control characters as
// \u escapes, the rest unchanged.
constexpr const char* kHostDocumentWalk =
    "{\"inputs\":{\"input\":\"caf\xc3\xa9 \\\"quoted\\\" back\\\\slash\\u000aline\"},"
    R"("actualOutputs":{"output":{"n":2102650.0,"big":123456789012345678901234567890,"huge":1e400,"neg":-0,)"
    R"("tenth":0.1,"list":[1,true,false,null,[],{}],"nested":{"a":{"b":[{"c":"d"}]}}}},)"
    R"("expectedOutputs":{"output":"x"},"metadata":{"tools":[]}})";

// The host lends its parse when KRINO_HOST_DOCUMENT says so (opt-in), read when HostServices is made.
struct LendDocuments {
  explicit LendDocuments(bool lend) { ::setenv("KRINO_HOST_DOCUMENT", lend ? "1" : "0", 1); }
};

struct DocumentHost {
  explicit DocumentHost(bool lend = true) : lend_documents(lend) {}
  LendDocuments lend_documents;
  Cancellation cancellation;
  HostServices services{cancellation, stderr, KRINO_LOG_ERROR};
  PluginRegistry registry;
  std::vector<std::unique_ptr<EvaluatorHandle>> evaluators;

  void use(const fs::path& plugin, const std::string& evaluator) {
    BOOST_REQUIRE(registry.load_file(plugin, *services.host_info()));
    evaluators.push_back(make_evaluator(registry, ComponentUse{evaluator, {}}, services.host(), 2));
  }
  // The item's results, scored as `krino eval` scores a test case given directly.
  std::vector<json::object> score(const std::string& testcase) {
    ItemProcessor processor(services, evaluators, 1);
    DatasetRecord record;
    record.kind = DatasetRecord::Kind::record;
    record.bytes = testcase;
    FinishedItem item;
    processor.process(0, 0, record, item);
    BOOST_REQUIRE(!item.event.error);
    std::vector<json::object> results;
    for (const auto& result : item.event.results) results.push_back(json::parse(result.json).as_object());
    return results;
  }
};

// A minimal host for the C++ helper alone: get_extension answers the document table.
const void* host_document_extension(const krino_host*, const char* id) {
  return std::string(id) == KRINO_HOST_DOCUMENT_EXTENSION_ID ? HostTestCase::table() : nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(host_document)

BOOST_AUTO_TEST_CASE(a_c_plugin_reads_every_value_of_the_test_case_exactly_through_the_host_parse) {
  DocumentHost host;
  host.use(host_document_plugin("document_reader"), "document_reader");
  const auto results = host.score(kHostDocumentCase);
  BOOST_REQUIRE(results.size() == 1u);
  const json::object& metadata = results[0].at("metadata").as_object();
  BOOST_TEST(metadata.at("lent").as_bool());
  const std::string line = std::string(kHostDocumentWalk);
  boost::system::error_code ec;
  const json::value expected = krino::json::parse(line, ec);
  BOOST_REQUIRE(!ec);
  BOOST_TEST(metadata.at("walk") == expected);
}

BOOST_AUTO_TEST_CASE(the_walk_keeps_number_texts_byte_for_byte) {
  DocumentHost host;
  host.use(host_document_plugin("document_reader"), "document_reader");
  ItemProcessor processor(host.services, host.evaluators, 1);
  DatasetRecord record;
  record.kind = DatasetRecord::Kind::record;
  record.bytes = kHostDocumentCase;
  FinishedItem item;
  processor.process(0, 0, record, item);
  BOOST_REQUIRE(item.event.results.size() == 1u);
  const std::string result(item.event.results[0].json);
  const std::string walk = "\"walk\":" + std::string(kHostDocumentWalk) + "}";
  BOOST_TEST(result.find(walk) != std::string::npos, result);
}

BOOST_AUTO_TEST_CASE(a_call_without_an_item_gets_no_document_and_the_plugin_is_told) {
  DocumentHost host;
  host.use(host_document_plugin("document_reader"), "document_reader");
  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  ctx.document_serial = host.services.next_document_serial();
  auto result = host.evaluators.at(0)->evaluate(ctx, kHostDocumentCase);
  BOOST_REQUIRE(std::holds_alternative<CheckedResult>(result));
  BOOST_TEST(json::parse(std::get<CheckedResult>(result).json).at("metadata").at("lent").as_bool() == false);
}

BOOST_AUTO_TEST_CASE(plugins_score_the_same_whether_the_host_lends_its_parse_or_not) {
  // c_nonempty: plain C that scans the bytes and never asks for the extension (as every plugin built
  // before it); word_count: the C++ helper, which builds its values from the parse when lent.
  const std::string testcase =
      R"({"inputs":{"input":"q"},"actualOutputs":{"output":"three small words"},"expectedOutputs":{},"metadata":{}})";
  std::vector<std::vector<json::object>> runs;
  for (const bool lent : {true, false}) {
    {
      DocumentHost host(lent);
      BOOST_TEST(host.services.lends_documents() == lent);
      host.use(fs::path(KRINO_EXAMPLE_PLUGIN_DIR) / "c_nonempty.so", "c_nonempty");
      host.use(fs::path(KRINO_EXAMPLE_PLUGIN_DIR) / "word_count.so", "word_count");
      runs.push_back(host.score(testcase));
    }
  }
  BOOST_REQUIRE(runs[0].size() == 2u);
  BOOST_TEST(runs[0][0].at("score").to_number<double>() == 1.0);
  BOOST_TEST(runs[0][1].at("metadata").at("words").to_number<double>() == 3.0);
  BOOST_TEST(runs[0] == runs[1]);
}

BOOST_AUTO_TEST_CASE(the_helpers_test_case_builds_from_the_host_parse_what_it_parses_from_the_bytes) {
  const std::string text = kHostDocumentCase;
  krino_span sections[4];
  for (int k = 0; k < 4; ++k) {
    const char* key = krino::detail::section_key(static_cast<krino::Section>(k));
    const std::optional<std::string_view> raw = krino::json::find_member(text, key);
    BOOST_REQUIRE(raw);
    sections[k] = krino_span{static_cast<uint64_t>(raw->data() - text.data()), raw->size()};
  }
  HostTestCase parsed(text, sections);
  CallAttribution attribution;
  CallHandle handle{&attribution, &parsed};
  krino_host host{};
  host.struct_size = sizeof(host);
  host.get_extension = &host_document_extension;
  krino_call_context ctx{};
  ctx.struct_size = sizeof(ctx);
  ctx.document_serial = HostServices::next_document_serial();
  ctx.host_handle = &handle;

  auto lent = krino::detail::testcase_document(&ctx, text.data(), text.size(), &host);
  BOOST_TEST(lent->host_document != nullptr);
  krino::TestCase from_host(*lent);
  boost::system::error_code ec;
  const json::value whole = krino::json::parse(text, ec);
  BOOST_REQUIRE(!ec);
  const json::object& document = whole.as_object();
  // A member alone, then whole sections, then the whole document: each equal to the parse of the text.
  BOOST_REQUIRE(from_host.actual_output() != nullptr);
  BOOST_TEST(*from_host.actual_output() == document.at("actualOutputs").at("output"));
  const json::value& output = *from_host.actual_output();
  BOOST_TEST(output.at("n").is_double());
  BOOST_TEST(output.at("n").as_double() == 2102650.0);
  BOOST_TEST(output.at("neg").is_int64());
  BOOST_TEST(output.at("big").is_double());
  BOOST_TEST(from_host.inputs() == document.at("inputs").as_object());
  BOOST_TEST(from_host.metadata() == document.at("metadata").as_object());
  BOOST_TEST(from_host.json() == document);
  BOOST_TEST(from_host.find(krino::Section::expected_outputs, "missing") == nullptr);

  // Without the host's parse (another call, no handle) the helper parses the bytes: the same values.
  krino_call_context plain = ctx;
  plain.host_handle = nullptr;
  plain.document_serial = HostServices::next_document_serial();
  auto own = krino::detail::testcase_document(&plain, text.data(), text.size(), &host);
  BOOST_TEST(own->host_document == nullptr);
  krino::TestCase from_bytes(*own);
  BOOST_TEST(from_bytes.json() == document);
}

BOOST_AUTO_TEST_CASE(a_section_the_host_cannot_parse_is_left_to_the_helper_which_names_the_error) {
  const std::string text = R"({"inputs":{},"actualOutputs":{"output":[1,2},"expectedOutputs":{},"metadata":{}})";
  const std::size_t at = text.find("{\"output\"");
  krino_span sections[4] = {{10, 2}, {at, 14}, {0, 0}, {0, 0}};
  HostTestCase parsed(text, sections);
  krino_json_value value{};
  HostTestCase::table()->read(HostTestCase::table()->find(parsed.root(), "actualOutputs", 13), &value);
  BOOST_TEST(value.kind == KRINO_JSON_UNREADABLE);
  HostTestCase::table()->read(HostTestCase::table()->find(parsed.root(), "inputs", 6), &value);
  BOOST_TEST(value.kind == KRINO_JSON_OBJECT);
  BOOST_TEST(value.count == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
