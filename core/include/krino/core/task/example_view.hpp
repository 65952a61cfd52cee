#pragma once
// A krino.example/1 document as the runner handles it: validated once, then read through the byte
// spans of its top-level members, which go into the test case and the report without a rebuild.
#include "krino/core/common/json_scan.hpp"

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace krino::core {

class ExampleView {
 public:
  // nullopt when `text` is not a JSON object (nested at most `max_depth` deep, as is_json_object).
  // `text` must outlive the view.
  static std::optional<ExampleView> from_text(std::string_view text, size_t max_depth = 512);
  static ExampleView empty();

  // The same view over a copy of its text: `to` must hold the bytes of `from`, the text this view
  // was made from.
  ExampleView rebased(std::string_view from, std::string_view to) const;

  // The raw value of a top-level member, if present.
  std::optional<std::string_view> raw(std::string_view key) const { return member(members_, key); }

  // An object-valued section ("inputs", "expectedOutputs", "metadata"): its bytes, or "{}" when
  // absent or not an object.
  std::string_view section(std::string_view key) const;

  // Whether the document already has the canonical krino.example/1 shape: keys only id and
  // datasetItemId (non-empty strings), inputs, expectedOutputs, metadata (objects, all three present),
  // actualOutputs (an object) and trace (not null), each at most once, and no key twice in a
  // section. Such a record from a resolver that declares KRINO_CAP_PASSES_EXAMPLES needs no
  // decoding (a record that is not one is decoded, and the resolver reports what is wrong).
  bool is_canonical() const;

  // The "id" as a JSON string token (with its quotes), if the example has a string id.
  std::optional<std::string_view> id_token() const;

 private:
  std::vector<JsonMember> members_;
  bool repeated_section_key_ = false;  // a section (a member object) has a key twice
};

}  // namespace krino::core
