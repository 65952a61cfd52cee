#include "krino/core/host/host_document.hpp"

#include "krino/core/host/call_handle.hpp"

#include <krino/json_parse.hpp>

#include <boost/json/basic_parser_impl.hpp>

#include <cstring>

namespace krino::core {

// basic_parser handler that appends one section's values to the document's table, the section's
// own value written over its placeholder (which keeps its key and its place among its siblings).
class TapeBuilder {
 public:
  static constexpr std::size_t max_object_size = 0xFFFFFFFFu;
  static constexpr std::size_t max_array_size = 0xFFFFFFFFu;
  static constexpr std::size_t max_key_size = std::size_t(-1) / 2;
  static constexpr std::size_t max_string_size = std::size_t(-1) / 2;

  TapeBuilder(HostTestCase& document, uint32_t target) : doc_(document), target_(target) {}

  bool on_document_begin(boost::json::error_code&) { return true; }
  bool on_document_end(boost::json::error_code&) { return true; }
  bool on_object_begin(boost::json::error_code&) {
    open_.push_back(Open{add(KRINO_JSON_OBJECT), 0});
    return true;
  }
  bool on_object_end(std::size_t n, boost::json::error_code&) { return close(n); }
  bool on_array_begin(boost::json::error_code&) {
    open_.push_back(Open{add(KRINO_JSON_ARRAY), 0});
    return true;
  }
  bool on_array_end(std::size_t n, boost::json::error_code&) { return close(n); }
  bool on_key_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    parts_.append(s.data(), s.size());
    return true;
  }
  bool on_key(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    const std::string_view key = kept(s);
    key_ = key.data();
    key_size_ = key.size();
    return true;
  }
  bool on_string_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    parts_.append(s.data(), s.size());
    return true;
  }
  bool on_string(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    const std::string_view text = kept(s);
    HostTestCase::Node& n = doc_.nodes_[add(KRINO_JSON_STRING)];
    n.text = text.data();
    n.text_size = text.size();
    return true;
  }
  bool on_number_part(boost::json::string_view s, boost::json::error_code&) {
    parts_.append(s.data(), s.size());
    return true;
  }
  bool on_int64(std::int64_t i, boost::json::string_view s, boost::json::error_code&) {
    return number(s, static_cast<double>(i), true);
  }
  bool on_uint64(std::uint64_t u, boost::json::string_view s, boost::json::error_code&) {
    return number(s, static_cast<double>(u), true);
  }
  bool on_double(double d, boost::json::string_view s, boost::json::error_code&) { return number(s, d, false); }
  bool on_bool(bool b, boost::json::error_code&) {
    add(b ? KRINO_JSON_TRUE : KRINO_JSON_FALSE);
    return true;
  }
  bool on_null(boost::json::error_code&) {
    add(KRINO_JSON_NULL);
    return true;
  }
  bool on_comment_part(boost::json::string_view, boost::json::error_code&) { return true; }
  bool on_comment(boost::json::string_view, boost::json::error_code&) { return true; }

 private:
  struct Open {
    uint32_t index;
    uint32_t last_child;
  };

  // A new value: the section's own value goes into its placeholder, every other one at the end of
  // the table, linked after its previous sibling.
  uint32_t add(int32_t kind) {
    uint32_t index = target_;
    if (started_) {
      index = static_cast<uint32_t>(doc_.nodes_.size());
      doc_.nodes_.emplace_back();
      Open& parent = open_.back();
      if (parent.last_child == 0) doc_.nodes_[parent.index].first = index;
      else doc_.nodes_[parent.last_child].next = index;
      parent.last_child = index;
      doc_.nodes_[index].key = key_;
      doc_.nodes_[index].key_size = key_size_;
      key_ = nullptr;
      key_size_ = 0;
    }
    started_ = true;
    HostTestCase::Node& n = doc_.nodes_[index];
    n.kind = kind;
    n.section = -1;
    return index;
  }
  bool close(std::size_t count) {
    doc_.nodes_[open_.back().index].count = static_cast<uint32_t>(count);
    open_.pop_back();
    return true;
  }
  // The number's text as written (in the test case's bytes unless it arrived in parts) and its
  // nearest double: Boost's reading when it is already exact, else std::from_chars's.
  bool number(boost::json::string_view last, double boost_value, bool integer) {
    std::string_view text(last.data(), last.size());
    if (!parts_.empty()) {
      parts_.append(last.data(), last.size());
      text = keep(parts_);
    }
    HostTestCase::Node& n = doc_.nodes_[add(KRINO_JSON_NUMBER)];
    n.text = text.data();
    n.text_size = text.size();
    n.number = integer || krino::json::boost_reads_exactly(text) ? boost_value : krino::json::exact_double(text, boost_value);
    return true;
  }
  // A string or key that will outlive the parse: the test case's own bytes when it has no escape
  // (the parser then points into them), else a copy.
  std::string_view kept(boost::json::string_view last) {
    const std::string_view text = doc_.text_;
    if (parts_.empty() && last.data() >= text.data() && last.data() + last.size() <= text.data() + text.size())
      return std::string_view(last.data(), last.size());
    parts_.append(last.data(), last.size());
    return keep(parts_);
  }
  std::string_view keep(std::string& parts) {
    doc_.unescaped_.push_front(std::move(parts));
    parts.clear();
    return doc_.unescaped_.front();
  }

  HostTestCase& doc_;
  uint32_t target_;
  bool started_ = false;
  std::vector<Open> open_;
  std::string parts_;
  const char* key_ = nullptr;
  std::size_t key_size_ = 0;
};

namespace {

const char* const kSectionKeys[4] = {"inputs", "actualOutputs", "expectedOutputs", "metadata"};

HostTestCase& document_of(krino_json_ref ref) {
  return *static_cast<HostTestCase*>(const_cast<void*>(ref.document));
}

krino_json_ref testcase_entry(const krino_host*, const krino_call_context* ctx) {
  if (ctx == nullptr || ctx->host_handle == nullptr) return krino_json_ref{nullptr, 0};
  const HostTestCase* document = static_cast<const CallHandle*>(ctx->host_handle)->testcase;
  return document != nullptr ? document->root() : krino_json_ref{nullptr, 0};
}

void read_entry(krino_json_ref ref, krino_json_value* out) {
  if (out == nullptr) return;
  *out = krino_json_value{KRINO_JSON_NULL, 0, nullptr, 0, 0.0};
  if (ref.document == nullptr) return;
  const HostTestCase::Node& n = document_of(ref).node(ref.index);
  *out = krino_json_value{n.kind, n.count, n.text, n.text_size, n.number};
}

krino_json_ref child(krino_json_ref ref, uint32_t index, const char** key, size_t* key_size) {
  if (index == 0) return krino_json_ref{nullptr, 0};
  // The key only: a pending section is parsed when it is read, not when it is passed.
  const HostTestCase::Node& n = document_of(ref).node_unparsed(index);
  if (key != nullptr) *key = n.key;
  if (key_size != nullptr) *key_size = n.key_size;
  return krino_json_ref{ref.document, index};
}

krino_json_ref first_entry(krino_json_ref container, const char** key, size_t* key_size) {
  if (container.document == nullptr) return krino_json_ref{nullptr, 0};
  const HostTestCase::Node& n = document_of(container).node(container.index);
  if (n.kind != KRINO_JSON_OBJECT && n.kind != KRINO_JSON_ARRAY) return krino_json_ref{nullptr, 0};
  return child(container, n.first, key, key_size);
}

krino_json_ref next_entry(krino_json_ref value, const char** key, size_t* key_size) {
  if (value.document == nullptr) return krino_json_ref{nullptr, 0};
  // A sibling's own section may be pending, but its place among its siblings is known: no parse.
  return child(value, document_of(value).node_link(value.index), key, key_size);
}

krino_json_ref find_entry(krino_json_ref object, const char* key, size_t key_size) {
  if (object.document == nullptr || (key == nullptr && key_size != 0)) return krino_json_ref{nullptr, 0};
  HostTestCase& document = document_of(object);
  const HostTestCase::Node& n = document.node(object.index);
  if (n.kind != KRINO_JSON_OBJECT) return krino_json_ref{nullptr, 0};
  uint32_t found = 0;
  for (uint32_t i = n.first; i != 0; i = document.node_link(i)) {
    const HostTestCase::Node& member = document.node_unparsed(i);
    if (member.key_size == key_size && (key_size == 0 || std::memcmp(member.key, key, key_size) == 0)) found = i;
  }
  return found != 0 ? krino_json_ref{object.document, found} : krino_json_ref{nullptr, 0};
}

}  // namespace

HostTestCase::HostTestCase(std::string_view text, const krino_span (&sections)[4]) : text_(text) {
  nodes_.reserve(5);
  nodes_.emplace_back();
  nodes_[0].kind = KRINO_JSON_OBJECT;
  uint32_t last = 0;
  for (int k = 0; k < 4; ++k) {
    sections_[k] = sections[k];
    if (sections[k].size == 0 || sections[k].offset + sections[k].size > text.size()) continue;
    const auto index = static_cast<uint32_t>(nodes_.size());
    nodes_.emplace_back();
    Node& n = nodes_.back();
    n.key = kSectionKeys[k];
    n.key_size = std::strlen(kSectionKeys[k]);
    n.section = k;
    if (last == 0) nodes_[0].first = index;
    else nodes_[last].next = index;
    last = index;
    ++nodes_[0].count;
  }
}

const HostTestCase::Node& HostTestCase::node(uint64_t index) {
  static const Node none{};
  if (index >= nodes_.size()) return none;
  const auto i = static_cast<uint32_t>(index);
  if (nodes_[i].section >= 0) parse_section(i);
  return nodes_[i];
}

void HostTestCase::parse_section(uint32_t index) {
  const krino_span span = sections_[nodes_[index].section];
  const std::size_t kept = nodes_.size();
  nodes_.reserve(kept + span.size / 12 + 8);  // about one value per dozen bytes of JSON
  boost::json::basic_parser<TapeBuilder> parser(boost::json::parse_options{}, *this, index);
  boost::json::error_code ec;
  const std::string_view bytes = text_.substr(span.offset, span.size);
  const std::size_t used = parser.write_some(false, bytes.data(), bytes.size(), ec);
  bool complete = !ec;
  for (std::size_t i = used; complete && i < bytes.size(); ++i)
    complete = bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\r' || bytes[i] == '\n';
  if (!complete) {
    // The plugin reads the bytes itself then, and reports the syntax error in its own words.
    nodes_.resize(kept);
    Node& n = nodes_[index];
    n.kind = KRINO_JSON_UNREADABLE;
    n.count = 0;
    n.first = 0;
    n.text = nullptr;
    n.text_size = 0;
  }
  nodes_[index].section = -1;
}

const krino_host_document* HostTestCase::table() noexcept {
  static const krino_host_document table{sizeof(krino_host_document), &testcase_entry, &read_entry, &first_entry,
                                         &next_entry, &find_entry};
  return &table;
}

}  // namespace krino::core
