// krino C++ helper: krino::TestCase, the read-only view of one krino.testcase/1 document an
// evaluator receives, parsed section by section, member by member, on first use.
//
// Threads: a TestCase belongs to the evaluate call that received it ([worker]); do not share it
// with other threads. Ownership: every pointer, reference, string_view and boost::json value it
// hands out lives in the call's arena and is valid until evaluate returns: copy what you keep
// (docs/sdk.md, "What not to keep beyond the call").
#ifndef KRINO_PLUGIN_TEST_CASE_HPP
#define KRINO_PLUGIN_TEST_CASE_HPP

#include <krino/json_spans.hpp>
#include <krino/plugin/test_case_document.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string_view>

namespace krino {

// A read-only view of one test case: over the call's text (parsed lazily), or over an object.
class TestCase {
 public:
  // A test case over a document already built (tests, and evaluators that run other evaluators).
  explicit TestCase(const boost::json::object& document) : document_(&document) {}
  // A test case over a call's text, parsed lazily (what the evaluator trampolines pass).
  explicit TestCase(detail::TestCaseDocument& lazy) : lazy_(&lazy) {}

  // The whole document. Parses everything; prefer the section accessors.
  const boost::json::object& json() const { return lazy_ != nullptr ? lazy_->document() : *document_; }
  const boost::json::object& inputs() const { return section(Section::inputs); }
  const boost::json::object& actual_outputs() const { return section(Section::actual_outputs); }
  const boost::json::object& expected_outputs() const { return section(Section::expected_outputs); }
  const boost::json::object& metadata() const { return section(Section::metadata); }

  // One member of a section, or nullptr when absent. Parses only that member: prefer this to
  // looking a key up in a whole section.
  const boost::json::value* find(Section which, std::string_view key) const {
    if (lazy_ != nullptr) return lazy_->member(which, key);
    return lookup(section(which), key);
  }

  // The recognised shortcuts: nullptr when the key is absent.
  const boost::json::value* input() const { return find(Section::inputs, "input"); }
  const boost::json::value* actual_output() const { return find(Section::actual_outputs, "output"); }
  const boost::json::value* expected_output() const { return find(Section::expected_outputs, "output"); }

  // The exact JSON text of member `key` of a section, without parsing the section: for evaluators
  // that cache work by content (compiled tool schemas, say) and can skip parsing what they have
  // seen before. nullopt when the member is absent, or when this test case was not built from
  // text (then read the parsed section instead).
  std::optional<std::string_view> raw_member(Section section, std::string_view key) const {
    if (lazy_ == nullptr) return std::nullopt;
    const std::optional<std::string_view> bytes = lazy_->raw(section);
    if (!bytes || bytes->empty() || bytes->front() != '{') return std::nullopt;
    return json::find_member(*bytes, key);
  }

  // raw_member for a caller that may know the value from its first bytes (a list it has seen on an
  // earlier row): `measure(rest)` gets the section's text from the member's value on and returns the
  // size of the value it recognises there (json::value_ends_member helps check it), or npos; a value
  // recognised is not scanned again. See json::find_member_measured.
  template <class Measure>
  std::optional<std::string_view> raw_member(Section section, std::string_view key, Measure&& measure) const {
    if (lazy_ == nullptr) return std::nullopt;
    const std::optional<std::string_view> bytes = lazy_->raw(section);
    if (!bytes || bytes->empty() || bytes->front() != '{') return std::nullopt;
    return json::find_member_measured(*bytes, key, measure);
  }

  static const boost::json::value* lookup(const boost::json::object& map, std::string_view key) {
    auto it = map.find(key);
    return it == map.end() ? nullptr : &it->value();
  }

 private:
  const boost::json::object& section(Section which) const {
    if (lazy_ != nullptr) return lazy_->section(which);
    static const boost::json::object empty;
    auto it = document_->find(detail::section_key(which));
    if (it == document_->end() || !it->value().is_object()) return empty;
    return it->value().get_object();
  }
  const boost::json::object* document_ = nullptr;
  detail::TestCaseDocument* lazy_ = nullptr;
};

}  // namespace krino

#endif  // KRINO_PLUGIN_TEST_CASE_HPP
