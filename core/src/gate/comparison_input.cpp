#include "krino/core/gate/comparison_input.hpp"

#include "krino/core/common/error.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>

#include <fstream>

namespace krino::core {

namespace {

bool looks_like_event_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw runtime_error("cannot read '" + path + "'");
  std::string first;
  std::getline(in, first);
  boost::system::error_code ec;
  const boost::json::value v = krino::json::parse(first, ec);
  return !ec && v.is_object() && v.get_object().contains("event") && v.get_object().contains("schema");
}

}  // namespace

bool ComparisonInput::keyed_by_id() const {
  if (baseline) return baseline->pairing == Pairing::dataset_item_id;
  return run && run->every_item_has_id();
}

ComparisonInput load_comparison_input(const std::string& path) {
  ComparisonInput input;
  input.path = path;
  if (looks_like_event_file(path)) input.run = read_run_projection(path);
  else input.baseline = read_baseline(path);
  return input;
}

Pairing resolve_pairing(Pairing requested, const ComparisonInput& a, const ComparisonInput& b) {
  if (requested != Pairing::automatic) return requested;
  return a.keyed_by_id() && b.keyed_by_id() ? Pairing::dataset_item_id : Pairing::positional;
}

ComparisonSide to_side(const ComparisonInput& input, Pairing pairing) {
  if (input.baseline) return side_from_baseline(*input.baseline, pairing);
  return side_from_run(*input.run, pairing);
}

}  // namespace krino::core
