// A tool's argument schema compiled into direct checks: the fast way to say "these arguments are
// valid", for the schemas agent datasets actually declare.
//
// valijson walks a tree of constraint objects with a std::function per constraint; for six calls
// a case that was most of tool_call_validity's time. Almost every call is valid, and proving that
// needs no messages, so this checks the common keywords by hand-written code and answers only
// "valid for certain" or "not proven". A call it does not accept goes to valijson, which gives the
// verdict and the messages, so verdicts and messages are valijson's in every case.
//
// It follows valijson's reading with strong types after integral numbers were made integers
// (tool_argument_schema.h): 5.0 is an integer, a number beyond 64 bits is not; string lengths are
// UTF-8 characters up to the first NUL, as valijson counts them. Anything else it is not sure to
// read the same way (an unsigned 64-bit integer, a NUL in a string compared with an enum) is "not
// proven", and a schema naming a property with a NUL in it does not compile.
//
// Handled keywords: type, enum (its string members), required, properties, additionalProperties
// (false, true or a schema), items (one schema), minimum, maximum, minLength, maxLength, and the
// annotations title, description, default, examples, $comment, $schema. A schema with any other
// keyword anywhere does not compile, and its tool is checked by valijson alone.
#ifndef KRINO_AGENT_COMPILED_ARGUMENT_SCHEMA_H
#define KRINO_AGENT_COMPILED_ARGUMENT_SCHEMA_H

#include <boost/json.hpp>

#include <memory>

namespace krino::agent {

class CompiledArgumentSchema {
 public:
  struct Node;

  // nullptr when the schema uses a keyword or form this does not handle. `schema` is read as
  // ToolArgumentSchema gives it to valijson (integral numbers already integers).
  static std::unique_ptr<const CompiledArgumentSchema> compile(const boost::json::value& schema);
  ~CompiledArgumentSchema();

  // true: valijson accepts `value` as well. false: not proven; ask valijson.
  bool accepts(const boost::json::value& value) const;
  // The same for an arguments object, read where it lies.
  bool accepts(const boost::json::object& arguments) const;

 private:
  explicit CompiledArgumentSchema(std::unique_ptr<Node> root);
  std::unique_ptr<Node> root_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_COMPILED_ARGUMENT_SCHEMA_H
