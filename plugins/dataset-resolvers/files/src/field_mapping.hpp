// The `fields` option of the JSON and JSON Lines resolvers: builds each example from chosen parts
// of a record of any shape, so exports such as tau-bench trajectories need no preprocessing.
//
//   fields:
//     id: "{/task_id}-{/trial}"                   a template: each {pointer} is replaced by the text of its value
//     trace: /traj                                a JSON pointer into the record ("" is the whole record)
//     inputs.input: /info/task/instruction        section.key: one entry of inputs, expectedOutputs,
//     expectedOutputs.toolCalls: /info/task/actions      actualOutputs or metadata
//     metadata: /info                             a whole section (the value must be an object)
//
// With `fields`, an example holds exactly what is mapped: other record keys are dropped (map
// `metadata.record: ""` to keep the whole record). A pointer that finds nothing makes the record an
// item error naming the field, since a mapping is an explicit request; a pointer to null leaves the
// field out, as a top-level null does in the unmapped shapes. A whole-section mapping comes first,
// its single-key mappings are laid over it.
#ifndef KRINO_FILES_FIELD_MAPPING_HPP
#define KRINO_FILES_FIELD_MAPPING_HPP

#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace krino::files {

class FieldMapping {
 public:
  // nullopt without a "fields" option. Throws krino::Error (INVALID_ARGUMENT) naming the entry for
  // a target that is not id, trace, a section or section.key, or a source that is neither a JSON
  // pointer nor a template.
  static std::optional<FieldMapping> from_options(const Config& options);

  // The canonical example for one record. Throws krino::Error (INVALID_ARGUMENT) naming the field
  // when a pointer finds nothing, a section source is not an object, or the id is neither a string
  // nor an integer.
  boost::json::object apply(const boost::json::value& record) const;

 private:
  struct Piece {
    bool is_pointer = false;
    std::string text;  // literal text, or the pointer
  };
  struct Field {
    std::string target;   // as written, for messages
    std::string section;  // "" for id and trace
    std::string key;      // "" for a whole section
    std::vector<Piece> template_pieces;  // a template (id, or any string-valued field)
    std::string pointer;                 // otherwise
    bool is_template = false;
  };

  static Field parse_field(const std::string& target, const std::string& source);
  static boost::json::value resolve(const Field& field, const boost::json::value& record);

  std::vector<Field> fields_;
};

}  // namespace krino::files

#endif  // KRINO_FILES_FIELD_MAPPING_HPP
