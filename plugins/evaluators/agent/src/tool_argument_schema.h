// Validation of a tool call's arguments against the JSON Schema its tool definition declares,
// with valijson (draft-07).
//
// Numbers are compared by value, as JSON Schema itself defines them since draft-06: 5.0 is an
// integer and satisfies {"type": "integer"}, and an enum of [1] accepts 1.0. valijson types
// numbers by their representation instead, so integral doubles are rewritten as integers on both
// sides (schema and arguments) before they reach it.
//
// Most arguments are proven valid by direct checks compiled from the schema, without valijson
// (compiled_argument_schema.h); valijson decides, and words the problems, for the rest.
//
// Compiling a schema costs far more than validating with it, and an agent dataset repeats the same
// few tool definitions on every row, so compiled schemas are cached per thread, keyed by the
// schema's compact JSON text.
#ifndef KRINO_AGENT_TOOL_ARGUMENT_SCHEMA_H
#define KRINO_AGENT_TOOL_ARGUMENT_SCHEMA_H

#include <boost/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace krino::agent {

class ToolArgumentSchema {
 public:
  // `parameters` is the tool's JSON Schema of its arguments object (nullptr: the tool declares no
  // schema, so any arguments are accepted). With `no_unexpected_arguments`, a schema that declares
  // `properties` rejects arguments it does not list, as if it said "additionalProperties": false.
  // Throws krino::invalid_argument when the schema is not one valijson can use.
  static std::shared_ptr<const ToolArgumentSchema> compile(const boost::json::object* parameters,
                                                           bool no_unexpected_arguments);
  ~ToolArgumentSchema();

  // The problems with `arguments` (an arguments object), one line each, such as "'units':
  // \"kelvin\" is not one of [\"celsius\",\"fahrenheit\"]"; empty when they are valid. Arguments
  // the schema's direct checks accept (compiled_argument_schema.h) are valid without valijson;
  // the others go to valijson, which gives the verdict and the messages.
  std::vector<std::string> validate(const boost::json::object& arguments) const;

  // The same answer from valijson alone (it copies the arguments to make integral numbers
  // integers). For tests that compare the two ways.
  std::vector<std::string> validate_with_valijson(const boost::json::object& arguments) const;

  // Whether the schema compiled into direct checks (it uses only the keywords they handle).
  bool has_direct_checks() const;

  struct Impl;

 private:
  explicit ToolArgumentSchema(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Rewrites every double with an integral value (5.0) as an integer, at any depth. Returns whether
// anything changed. Exposed for tests.
bool make_integral_numbers_integers(boost::json::value& value);

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_ARGUMENT_SCHEMA_H
