#pragma once
// Trace extractor components of a built plugin module, called through their C ABI vtable exactly as
// the host calls them, and the golden files that pin what they extract
// (tests/plugins/<family>/golden/*.json; tests/support/trace_golden.py explains the format).
#include "loaded_module.hpp"
#include "test_paths.hpp"

#include <krino/json_text.hpp>
#include <krino/plugin.h>
#include <krino/plugin.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace krino::test {

struct ExtractOutcome {
  krino_status status = KRINO_UNKNOWN;
  std::string trace;  // the krino.trace/1 text when status is OK
  std::string error;

  boost::json::value json() const { return boost::json::parse(trace); }
};

inline const krino_trace_extractor_vtable& extractor_vtable(const LoadedModule& module, const std::string& name) {
  const krino_component* component = module.component(name);
  if (component == nullptr || component->kind != KRINO_KIND_TRACE_EXTRACTOR)
    throw std::runtime_error("the module has no trace extractor named " + name);
  return *static_cast<const krino_trace_extractor_vtable*>(component->vtable);
}

inline int detect(const LoadedModule& module, const std::string& name, const std::string& raw) {
  return extractor_vtable(module, name).detect(raw.data(), raw.size());
}

inline ExtractOutcome extract(const LoadedModule& module, const std::string& name, const std::string& raw) {
  krino::detail::StringSink trace;
  krino::detail::StringSink error;
  ExtractOutcome out;
  out.status = extractor_vtable(module, name).extract(raw.data(), raw.size(), &trace.sink, &error.sink);
  out.trace = std::move(trace.text);
  out.error = std::move(error.text);
  return out;
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The module built for a plugin: "openai" is build/.../krino-openai.so.
inline std::string plugin_module(const std::string& plugin) {
  return std::string(KRINO_PLUGIN_BUILD_DIR) + "/krino-" + plugin + ".so";
}

// The built module of `plugin`, loaded once per test process (the host never unloads plugins either).
inline const LoadedModule& shared_module(const std::string& plugin) {
  static std::map<std::string, std::unique_ptr<LoadedModule>> loaded;
  std::unique_ptr<LoadedModule>& module = loaded[plugin];
  if (!module) module = std::make_unique<LoadedModule>(plugin_module(plugin));
  return *module;
}

// The trace `extractor` of `plugin` makes of `raw`; a failed extraction fails the test.
inline boost::json::object extracted(const std::string& plugin, const std::string& extractor, const std::string& raw) {
  const ExtractOutcome out = extract(shared_module(plugin), extractor, raw);
  BOOST_TEST_REQUIRE(out.status == KRINO_OK, out.error);
  return out.json().as_object();
}

struct GoldenCase {
  std::string file;       // the golden file's name
  std::string extractor;  // the extractor that owns the format
  std::string input;      // the raw text handed to the extractor
  boost::json::value expected;
};

// The raw input a golden names: the fixture's bytes for "" (so parsing quirks are tested too), the
// value at a JSON pointer, or an object built from pointers.
inline std::string golden_input(const boost::json::object& golden) {
  const std::filesystem::path fixture =
      std::filesystem::path(KRINO_SOURCE_DIR) / "tests" / "fixtures" / std::string(golden.at("fixture").as_string());
  const std::string text = read_text(fixture);
  const boost::json::value& spec = golden.at("input");
  if (spec.is_string() && spec.get_string().empty()) return text;
  const boost::json::value document = boost::json::parse(text);
  if (spec.is_string()) return boost::json::serialize(document.at_pointer(spec.get_string()));
  boost::json::object built;
  for (const auto& [key, pointer] : spec.as_object()) built[key] = document.at_pointer(pointer.as_string());
  return boost::json::serialize(built);
}

// Every golden file of `directory`, in name order.
inline std::vector<GoldenCase> golden_cases(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<GoldenCase> cases;
  for (const auto& file : files) {
    const boost::json::object golden = boost::json::parse(read_text(file)).as_object();
    if (golden.at("checked").as_string().size() < 40)
      throw std::runtime_error(file.string() + ": say in \"checked\" how the expected trace was checked by hand");
    cases.push_back({file.filename().string(), std::string(golden.at("extractor").as_string()), golden_input(golden),
                     golden.at("expected")});
  }
  return cases;
}

}  // namespace krino::test

namespace krino::test {

// "" when `golden` holds for the module: its extractor claims the input (confidence of at least 50)
// and extracts exactly the expected trace. Otherwise what went wrong, with the actual trace to
// review when it differs.
inline std::string check_golden(const LoadedModule& module, const GoldenCase& golden) {
  const int confidence = detect(module, golden.extractor, golden.input);
  if (confidence < 50) return golden.file + ": " + golden.extractor + " detects it with confidence " + std::to_string(confidence);
  const ExtractOutcome out = extract(module, golden.extractor, golden.input);
  if (out.status != KRINO_OK) return golden.file + ": extraction failed: " + out.error;
  const boost::json::value actual = out.json();
  if (actual != golden.expected)
    return golden.file + ": the trace differs from the golden file; actual:\n" + json::to_pretty_json(actual);
  return "";
}

// Checks every golden file of tests/plugins/<plugin>/golden against the plugin's built module;
// `count` pins how many there are, so a lost file is noticed.
inline void check_golden_files(const std::string& plugin, std::size_t count) {
  const LoadedModule module(plugin_module(plugin));
  const std::vector<GoldenCase> cases =
      golden_cases(std::string(KRINO_SOURCE_DIR) + "/tests/plugins/" + plugin + "/golden");
  BOOST_TEST_REQUIRE(cases.size() == count);
  for (const GoldenCase& golden : cases) {
    const std::string problem = check_golden(module, golden);
    BOOST_TEST(problem.empty(), problem);
  }
}

}  // namespace krino::test
