#include "matching_strategy_factory.h"

#include "literal_matcher.h"
#include "unicode_text.h"

#include <krino/json_equality.hpp>

#include <boost/json.hpp>

#include <utility>

namespace krino::text {

namespace {

using boost::json::value;
using StrategyList = std::vector<std::unique_ptr<const MatchingStrategy>>;

class EqualityStrategy final : public MatchingStrategy {
 public:
  bool matches(const value& retrieved, const value& expected, CallContext&) const override {
    return json::same_value(retrieved, expected);
  }
  std::string describe() const override { return "equality"; }
};

class CaseInsensitiveStrategy final : public MatchingStrategy {
 public:
  bool matches(const value& retrieved, const value& expected, CallContext&) const override {
    if (!retrieved.is_string() || !expected.is_string()) return json::same_value(retrieved, expected);
    return LiteralMatcher::caseless_equals(expected.get_string(), retrieved.get_string());
  }
  std::string describe() const override { return "case_insensitive"; }
};

class FieldStrategy final : public MatchingStrategy {
 public:
  explicit FieldStrategy(std::string field) : field_(std::move(field)) {}
  bool matches(const value& retrieved, const value& expected, CallContext&) const override {
    const value* r = identifier(retrieved);
    const value* e = identifier(expected);
    return r != nullptr && e != nullptr && json::same_value(*r, *e);
  }
  std::string describe() const override { return "field(" + field_ + ")"; }

 private:
  // The compared value of an item; nullptr when it has none, so two items lacking the field do
  // not match each other.
  const value* identifier(const value& item) const {
    if (!item.is_object()) return &item;
    const value* id = item.get_object().if_contains(field_);
    return id != nullptr && !id->is_null() ? id : nullptr;
  }
  std::string field_;
};

class FieldsStrategy final : public MatchingStrategy {
 public:
  explicit FieldsStrategy(std::vector<std::string> fields) : fields_(std::move(fields)) {}
  bool matches(const value& retrieved, const value& expected, CallContext&) const override {
    if (!retrieved.is_object() || !expected.is_object()) return json::same_value(retrieved, expected);
    for (const std::string& field : fields_) {
      const value* r = retrieved.get_object().if_contains(field);
      const value* e = expected.get_object().if_contains(field);
      if (r == nullptr || e == nullptr || r->is_null() || e->is_null() || !json::same_value(*r, *e)) return false;
    }
    return true;
  }
  std::string describe() const override {
    std::string out = "fields(";
    for (std::size_t i = 0; i < fields_.size(); ++i) out += (i > 0 ? ", " : "") + fields_[i];
    return out + ")";
  }

 private:
  std::vector<std::string> fields_;
};

class ContainmentStrategy final : public MatchingStrategy {
 public:
  explicit ContainmentStrategy(bool normalize) : normalize_(normalize) {}
  bool matches(const value& retrieved, const value& expected, CallContext&) const override {
    if (!retrieved.is_string() || !expected.is_string()) return json::same_value(retrieved, expected);
    const std::string r = normalize_ ? collapse_white_space(retrieved.get_string()) : std::string(retrieved.get_string());
    const std::string e = normalize_ ? collapse_white_space(expected.get_string()) : std::string(expected.get_string());
    // Every text contains the empty text; a blank relevant entry must not match everything.
    if (e.empty()) return r.empty();
    return normalize_ ? LiteralMatcher::caseless_found_in(e, r) : r.find(e) != std::string::npos;
  }
  std::string describe() const override { return normalize_ ? "containment(normalized)" : "containment"; }

 private:
  bool normalize_;
};

class CombinedStrategy final : public MatchingStrategy {
 public:
  CombinedStrategy(bool require_all, StrategyList parts) : require_all_(require_all), parts_(std::move(parts)) {}
  bool matches(const value& retrieved, const value& expected, CallContext& ctx) const override {
    for (const auto& part : parts_) {
      const bool matched = part->matches(retrieved, expected, ctx);
      if (matched != require_all_) return matched;  // any_of: first match wins; all_of: first miss loses
    }
    return require_all_;
  }
  std::string describe() const override {
    std::string out = require_all_ ? "all_of(" : "any_of(";
    for (std::size_t i = 0; i < parts_.size(); ++i) out += (i > 0 ? ", " : "") + parts_[i]->describe();
    return out + ")";
  }

 private:
  bool require_all_;
  StrategyList parts_;
};

// Reads the matching object at `where`, refusing options the named strategy does not take.
class StrategySpec {
 public:
  StrategySpec(const value& spec, std::string_view where) : where_(where) {
    if (!spec.is_object()) throw invalid_argument("option '" + where_ + "' must be an object such as {\"strategy\": \"equality\"}");
    object_ = &spec.get_object();
    const value* name = object_->if_contains("strategy");
    if (name != nullptr && !name->is_null()) {
      if (!name->is_string()) throw invalid_argument("option '" + where_ + ".strategy' must be a string");
      strategy_ = std::string(name->get_string());
    }
  }

  const std::string& strategy() const { return strategy_; }

  // Throws unless every present option is "strategy" or one of `allowed`.
  void only(std::initializer_list<std::string_view> allowed) const {
    for (const auto& member : *object_) {
      if (member.key() == "strategy") continue;
      bool known = false;
      for (std::string_view option : allowed) known = known || member.key() == option;
      if (!known)
        throw invalid_argument("option '" + where_ + "." + std::string(member.key()) + "' does not apply to strategy '" +
                               strategy_ + "'");
    }
  }

  const value& require(std::string_view option) const {
    const value* v = object_->if_contains(option);
    if (v == nullptr || v->is_null())
      throw invalid_argument("strategy '" + strategy_ + "' needs option '" + where_ + "." + std::string(option) + "'");
    return *v;
  }

  std::string non_empty_string(const value& v, std::string_view option) const {
    if (!v.is_string() || v.get_string().empty())
      throw invalid_argument("option '" + where_ + "." + std::string(option) + "' must be a non-empty string");
    return std::string(v.get_string());
  }

  const boost::json::array& non_empty_array(std::string_view option) const {
    const value& v = require(option);
    if (!v.is_array() || v.get_array().empty())
      throw invalid_argument("option '" + where_ + "." + std::string(option) + "' must be a non-empty list");
    return v.get_array();
  }

  bool flag(std::string_view option) const {
    const value* v = object_->if_contains(option);
    if (v == nullptr || v->is_null()) return false;
    if (!v->is_bool()) throw invalid_argument("option '" + where_ + "." + std::string(option) + "' must be true or false");
    return v->get_bool();
  }

  const std::string& where() const { return where_; }

 private:
  std::string where_;
  const boost::json::object* object_ = nullptr;
  std::string strategy_ = "equality";
};

}  // namespace

std::unique_ptr<const MatchingStrategy> make_matching_strategy(const value& spec, std::string_view where) {
  if (spec.is_null()) return std::make_unique<EqualityStrategy>();
  const StrategySpec s(spec, where);
  const std::string& name = s.strategy();
  if (name == "equality") {
    s.only({});
    return std::make_unique<EqualityStrategy>();
  }
  if (name == "case_insensitive") {
    s.only({});
    return std::make_unique<CaseInsensitiveStrategy>();
  }
  if (name == "field") {
    s.only({"field"});
    return std::make_unique<FieldStrategy>(s.non_empty_string(s.require("field"), "field"));
  }
  if (name == "fields") {
    s.only({"fields"});
    std::vector<std::string> fields;
    for (const value& field : s.non_empty_array("fields")) fields.push_back(s.non_empty_string(field, "fields"));
    return std::make_unique<FieldsStrategy>(std::move(fields));
  }
  if (name == "containment") {
    s.only({"normalize"});
    return std::make_unique<ContainmentStrategy>(s.flag("normalize"));
  }
  if (name == "any_of" || name == "all_of") {
    s.only({"strategies"});
    StrategyList parts;
    const boost::json::array& specs = s.non_empty_array("strategies");
    for (std::size_t i = 0; i < specs.size(); ++i) {
      if (specs[i].is_null()) throw invalid_argument("option '" + s.where() + ".strategies[" + std::to_string(i) + "]' must be an object");
      parts.push_back(make_matching_strategy(specs[i], s.where() + ".strategies[" + std::to_string(i) + "]"));
    }
    return std::make_unique<CombinedStrategy>(name == "all_of", std::move(parts));
  }
  throw invalid_argument("option '" + s.where() +
                         ".strategy' must be one of equality, case_insensitive, field, fields, containment, any_of, "
                         "all_of; got '" + name + "'");
}

}  // namespace krino::text
