// Reading a dataset for tests: the resolver plugin that handles the URI, as `krino run` chooses and
// drives it (core's DatasetStream), each record decoded into a krino.example/1 document.
#include "krino/testing/evaluators.hpp"

#include "host_context.hpp"
#include "krino/testing/error.hpp"

#include "krino/core/runner/component_factory.hpp"
#include "krino/core/runner/dataset_stream.hpp"

#include <krino/json_parse.hpp>

#include <boost/json.hpp>

#include <map>

namespace krino::testing {
namespace json = boost::json;

namespace {

std::string where(const std::string& uri, const core::DatasetRecord& record, size_t index) {
  return record.location.empty() ? uri + " (example " + std::to_string(index) + ")" : record.location;
}

}  // namespace

std::vector<Example> Evaluators::dataset(const std::string& uri, std::string_view resolver_options_json) const {
  boost::system::error_code ec;
  json::value options = krino::json::parse(resolver_options_json, ec);
  if (ec || !options.is_object()) throw Error("the options of the dataset resolver for " + uri + " must be a JSON object");
  std::vector<Example> examples;
  try {
    const core::Component& resolver = core::choose_resolver(host_->registry, uri, "");
    core::validate_options(resolver, options.get_object(), "dataset resolver '" + resolver.name + "'");
    core::DatasetStream stream(resolver, host_->host.host(), uri, options.get_object());
    for (core::DatasetRecord record = stream.next(); record.kind != core::DatasetRecord::Kind::end;
         record = stream.next()) {
      const size_t index = examples.size();
      if (record.kind == core::DatasetRecord::Kind::bad) throw Error(where(uri, record, index) + ": " + record.error);
      auto decoded = stream.decode(record.bytes);
      if (!decoded.ok()) throw Error(where(uri, record, index) + ": " + decoded.error().message);
      json::value example = krino::json::parse(decoded.value(), ec);
      if (ec || !example.is_object()) throw Error(where(uri, record, index) + ": the record is not a JSON object");
      std::string id;
      if (const json::value* v = example.get_object().if_contains("id"); v != nullptr && v->is_string())
        id = std::string(v->get_string());
      examples.emplace_back(std::move(decoded).value(), std::move(id), index, record.location);
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
  // Test names must be unique: a name taken before gets the example's index ("q1", "q1_7").
  std::map<std::string, size_t> taken;
  for (Example& example : examples) {
    if (taken[example.test_name_]++ > 0) example.test_name_.append("_").append(std::to_string(example.index()));
  }
  return examples;
}

std::vector<Example> read_dataset(const std::string& uri, const LoadOptions& options) {
  try {
    return load_evaluators(options).dataset(uri);
  } catch (const Error& e) {
    std::vector<Example> failed;
    failed.push_back(Example::unreadable(e.what()));
    return failed;
  }
}

}  // namespace krino::testing
