#pragma once
// The host's parse of one item's test case, lent to plugins as the "krino.host.document/1"
// extension (sdk: krino/host_document.h).
//
// Each section ("inputs", "actualOutputs", ...) is parsed on first use, once for the item, into a
// flat table of values; every evaluator of every plugin reads that table through the extension's
// functions instead of parsing the bytes again. Strings without escapes and number texts point into
// the test case's bytes; unescaped strings live in the document's own storage.
//
// Threading: one document belongs to one item; the runner calls the item's evaluators one after
// another, so it is never read from two threads at once ([worker]). Ownership: the document views the
// test case's bytes, which must outlive it; refs handed out are valid while both live.
#include <krino/host_document.h>

#include <cstdint>
#include <forward_list>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {

class HostTestCase {
 public:
  // `sections` are the spans of the four sections in `text` (krino_call_context order); a size of
  // 0 means the section is absent.
  HostTestCase(std::string_view text, const krino_span (&sections)[4]);
  HostTestCase(const HostTestCase&) = delete;
  HostTestCase& operator=(const HostTestCase&) = delete;

  krino_json_ref root() const noexcept { return krino_json_ref{this, 0}; }

  // The extension table; its functions find the document through the ref.
  static const krino_host_document* table() noexcept;

  // One value of the table. Containers link their children (first, next), so a section parsed
  // late can be appended at the end of the table.
  struct Node {
    int32_t kind = KRINO_JSON_NULL;
    uint32_t count = 0;
    uint32_t first = 0;  // first child; 0 = none (the root is never a child)
    uint32_t next = 0;   // next sibling; 0 = none
    const char* key = nullptr;
    std::size_t key_size = 0;
    const char* text = nullptr;
    std::size_t text_size = 0;
    double number = 0.0;
    int32_t section = -1;  // >= 0: a section not parsed yet (kind says nothing until it is)
  };

  // The node behind `index`, its section parsed first when it is still pending.
  const Node& node(uint64_t index);
  // What is known of a node without parsing its section: its key and its next sibling.
  const Node& node_unparsed(uint32_t index) const { return nodes_[index]; }
  uint32_t node_link(uint64_t index) const { return index < nodes_.size() ? nodes_[index].next : 0; }

 private:
  friend class TapeBuilder;
  void parse_section(uint32_t index);

  std::string_view text_;
  krino_span sections_[4];
  std::vector<Node> nodes_;
  // Strings and keys with escapes; a list keeps them in place, and costs nothing while empty.
  std::forward_list<std::string> unescaped_;
};

}  // namespace krino::core
