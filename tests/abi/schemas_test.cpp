// The payload JSON Schemas of sdk/schemas/: each is a usable draft-7 schema named by its $id and
// title; the documents of docs/payloads.md and a few more (tests/abi/fixtures/valid/) pass; broken
// documents (tests/abi/fixtures/invalid/) are rejected. A fixture's schema is its file name up to
// the first '_' or '.': "event_run_started.json" is checked against event.json.
#include "test_paths.hpp"

#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <valijson/adapters/boost_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSchemaDir = fs::path(KRINO_SOURCE_DIR) / "sdk" / "schemas";
const fs::path kFixtureDir = fs::path(KRINO_SOURCE_DIR) / "tests" / "abi" / "fixtures";
const std::vector<std::string> kSchemaNames = {"example", "testcase",     "evalresult",  "datasetinfo",
                                               "event",   "trace",        "judgerequest", "judgeresponse", "evaluatorworker"};
constexpr std::string_view kIdPrefix = "https://krino.dev/schemas/";
constexpr std::string_view kIdSuffix = "-1.json";

boost::json::value read_json(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(text.str(), ec);
  if (ec) throw std::runtime_error(path.string() + " is not valid JSON: " + ec.message());
  return value;
}

// Schemas refer to each other by $id (https://krino.dev/schemas/<name>-1.json); valijson asks for
// those documents here, and they come from the files.
const boost::json::value* fetch_schema_document(const std::string& uri) {
  if (uri.size() <= kIdPrefix.size() + kIdSuffix.size() || uri.compare(0, kIdPrefix.size(), kIdPrefix) != 0 ||
      uri.compare(uri.size() - kIdSuffix.size(), kIdSuffix.size(), kIdSuffix) != 0)
    return nullptr;
  const std::string name = uri.substr(kIdPrefix.size(), uri.size() - kIdPrefix.size() - kIdSuffix.size());
  const fs::path path = kSchemaDir / (name + ".json");
  if (!fs::exists(path)) return nullptr;
  return new boost::json::value(read_json(path));
}

void free_schema_document(const boost::json::value* document) { delete document; }

std::unique_ptr<valijson::Schema> load_schema(const std::string& name) {
  const boost::json::value document = read_json(kSchemaDir / (name + ".json"));
  auto schema = std::make_unique<valijson::Schema>();
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::BoostJsonAdapter adapter(document);
  parser.populateSchema(adapter, *schema, fetch_schema_document, free_schema_document);
  return schema;
}

const valijson::Schema& schema(const std::string& name) {
  static std::map<std::string, std::unique_ptr<valijson::Schema>> loaded;
  auto it = loaded.find(name);
  if (it == loaded.end()) it = loaded.emplace(name, load_schema(name)).first;
  return *it->second;
}

// Every violation, one per line; empty when `document` is valid.
std::string violations(const std::string& schema_name, const boost::json::value& document) {
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::BoostJsonAdapter target(document);
  if (validator.validate(schema(schema_name), target, &results)) return {};
  std::string text;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    for (const auto& part : error.context) text += part;
    text += ": " + error.description + "\n";
  }
  return text.empty() ? "invalid\n" : text;
}

// The member's text, or a marker when it is absent or not a string.
std::string string_member(const boost::json::object& object, std::string_view key) {
  auto it = object.find(key);
  if (it == object.end()) return "<absent>";
  if (!it->value().is_string()) return "<not a string>";
  return std::string(it->value().get_string());
}

std::string schema_of_fixture(const fs::path& file) {
  const std::string stem = file.stem().string();
  return stem.substr(0, stem.find('_'));
}

std::vector<fs::path> fixtures(const std::string& kind) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kFixtureDir / kind))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(payload_schemas)

BOOST_AUTO_TEST_CASE(every_schema_is_draft7_with_id_and_title) {
  for (const auto& name : kSchemaNames) {
    BOOST_TEST_CONTEXT("schema " << name) {
      const boost::json::value document = read_json(kSchemaDir / (name + ".json"));
      BOOST_TEST_REQUIRE(document.is_object());
      const auto& o = document.get_object();
      BOOST_TEST(string_member(o, "$schema") == "http://json-schema.org/draft-07/schema#");
      BOOST_TEST(string_member(o, "$id") == std::string(kIdPrefix) + name + std::string(kIdSuffix));
      BOOST_TEST(string_member(o, "title") == "krino." + name + "/1");
      // Readers ignore unknown fields, so no schema may close its top-level object.
      BOOST_TEST(!o.contains("additionalProperties"));
      BOOST_CHECK_NO_THROW(schema(name));
    }
  }
}

BOOST_AUTO_TEST_CASE(every_schema_has_valid_and_invalid_fixtures) {
  std::map<std::string, int> valid;
  std::map<std::string, int> invalid;
  for (const auto& file : fixtures("valid")) ++valid[schema_of_fixture(file)];
  for (const auto& file : fixtures("invalid")) ++invalid[schema_of_fixture(file)];
  for (const auto& name : kSchemaNames) {
    BOOST_TEST_CONTEXT("schema " << name) {
      BOOST_TEST(valid[name] > 0);
      BOOST_TEST(invalid[name] > 0);
    }
  }
  for (const auto& [name, count] : valid) {
    BOOST_TEST_CONTEXT("fixture prefix " << name) {
      BOOST_TEST((std::find(kSchemaNames.begin(), kSchemaNames.end(), name) != kSchemaNames.end()));
    }
  }
  for (const auto& [name, count] : invalid) {
    BOOST_TEST_CONTEXT("fixture prefix " << name) {
      BOOST_TEST((std::find(kSchemaNames.begin(), kSchemaNames.end(), name) != kSchemaNames.end()));
    }
  }
}

BOOST_AUTO_TEST_CASE(valid_documents_pass) {
  for (const auto& file : fixtures("valid")) {
    BOOST_TEST_CONTEXT("fixture " << file.filename().string()) {
      BOOST_TEST(violations(schema_of_fixture(file), read_json(file)) == "");
    }
  }
}

BOOST_AUTO_TEST_CASE(invalid_documents_are_rejected) {
  for (const auto& file : fixtures("invalid")) {
    BOOST_TEST_CONTEXT("fixture " << file.filename().string()) {
      const std::string found = violations(schema_of_fixture(file), read_json(file));
      BOOST_TEST(found != "");
      BOOST_TEST_MESSAGE(file.filename().string() << " rejected:\n" << found);
    }
  }
}

// What the C++ helper layer writes is what the schema describes.
BOOST_AUTO_TEST_CASE(helper_layer_eval_results_match_the_schema) {
  krino::EvalResult passed = krino::EvalResult::scored("word_count", 1.0, 1.0, "12 words");
  passed.metadata["words"] = 12;
  krino::EvalResult failed = krino::EvalResult::scored("word_count", 0.25, 0.5);
  krino::EvalResult unscored = krino::EvalResult::unscored("judge", 0.5, "the judge gave no score");
  for (const auto* result : {&passed, &failed, &unscored}) {
    BOOST_TEST_CONTEXT("result " << boost::json::serialize(result->to_json())) {
      BOOST_TEST(violations("evalresult", result->to_json()) == "");
    }
  }
}

// What the trace extractors write is what the schema describes: every golden file's expected trace.
BOOST_AUTO_TEST_CASE(every_golden_trace_matches_the_schema) {
  int checked = 0;
  for (const auto& family : fs::directory_iterator(fs::path(KRINO_SOURCE_DIR) / "tests" / "plugins")) {
    const fs::path golden = family.path() / "golden";
    if (!fs::is_directory(golden)) continue;
    for (const auto& file : fs::directory_iterator(golden)) {
      BOOST_TEST_CONTEXT("golden " << file.path().string()) {
        BOOST_TEST(violations("trace", read_json(file.path()).at("expected")) == "");
        ++checked;
      }
    }
  }
  BOOST_TEST(checked >= 40);
}

BOOST_AUTO_TEST_SUITE_END()
