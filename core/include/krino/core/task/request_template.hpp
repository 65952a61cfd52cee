#pragma once
// Templates that build a request to a system under test from an example: text with {{path}}
// placeholders (an HTTP task's URL, headers and body). A path names part of the example:
//   {{inputs.question}}  {{expectedOutputs.answer}}  {{metadata.user.id}}  {{id}}  {{index}}
//   {{inputs}} (the whole map)  {{example}} (id, inputs and metadata: never the expected outputs)
//   {{env.NAME}} (an environment variable, read once when the task is configured)
// Mistakes a user can make in the experiment file (an unknown root, an unclosed "{{", an unset
// variable) are configuration errors before anything runs; a path an example lacks is that item's
// error, never an empty value sent silently.
#include "krino/core/common/environment_lookup.hpp"
#include "krino/core/task/example_view.hpp"

#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

// An example lacks a value a template asks for. The message names the path and where it is used.
class TemplateValueMissing : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What placeholders read for one item. Each example member is parsed once, on first use.
class TemplateContext {
 public:
  TemplateContext(const ExampleView& example, std::uint64_t index) : example_(example), index_(index) {}

  // The value at `path` (already split on dots), or nullptr when the example has none.
  const boost::json::value* lookup(const std::vector<std::string>& path);

 private:
  const ExampleView& example_;
  std::uint64_t index_;
  std::map<std::string, boost::json::value, std::less<>> parsed_;  // example member -> its value
};

class RequestTemplate {
 public:
  // How a value is written into the text.
  enum class Encoding {
    text,       // strings as they are, anything else as compact JSON
    url,        // like text, then percent-encoded (every byte but A-Z a-z 0-9 - . _ ~)
  };

  RequestTemplate() = default;
  // Throws a configuration KrinoError naming `where` ("task.url") for a syntax error, an unknown
  // root, or an unset {{env.X}}.
  RequestTemplate(std::string_view text, std::string_view where, const EnvironmentLookup& environment);

  // Throws TemplateValueMissing when the example lacks a value.
  std::string render(TemplateContext& context, Encoding encoding = Encoding::text) const;

  // The template is exactly one placeholder (a JSON body then takes the value itself, not its text).
  bool is_single_value() const { return pieces_.size() == 1 && pieces_[0].is_path; }
  const boost::json::value& single_value(TemplateContext& context) const;

  // Every value read from the environment: never to be quoted in a message.
  const std::vector<std::string>& secrets() const { return secrets_; }
  // The template with each placeholder shown as "x": lets configuration checks parse a URL.
  std::string sample() const;

 private:
  struct Piece {
    bool is_path = false;
    std::string text;               // literal text (env values are resolved into literals)
    std::vector<std::string> path;  // when is_path
  };
  std::vector<Piece> pieces_;
  std::vector<std::string> secrets_;
  std::string where_;
};

// A JSON value whose strings are templates: a string that is exactly one placeholder becomes the
// value itself ({"q": "{{inputs.question}}"} keeps a number a number), any other string is rendered
// as text. Object keys are not templated.
class JsonBodyTemplate {
 public:
  JsonBodyTemplate() = default;
  JsonBodyTemplate(const boost::json::value& body, std::string_view where, const EnvironmentLookup& environment);

  // Throws TemplateValueMissing.
  boost::json::value render(TemplateContext& context) const;
  const std::vector<std::string>& secrets() const { return secrets_; }

 private:
  boost::json::value render_value(const boost::json::value& value, TemplateContext& context, std::size_t& next) const;
  boost::json::value body_;
  std::vector<RequestTemplate> strings_;  // every string of body_, in document order
  std::vector<std::string> secrets_;
};

}  // namespace krino::core
