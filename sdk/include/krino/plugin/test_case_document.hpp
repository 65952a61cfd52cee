// krino C++ helper, detail: the lazy test case document behind krino::TestCase, and the per-thread
// cache that lets every evaluator of a plugin share one scan and one parse per document.
//
// Not an interface to build on (namespace detail: it may change in any release); read
// <krino/plugin/test_case.hpp> for what evaluators use. Here for the evaluator trampolines and for
// tests.
//
// Threads: a TestCaseDocument is used by one call at a time, on the worker thread of that call
// (evaluate is [worker]); the cache is thread_local. Ownership: the document views the host's bytes
// (valid for the call only) and owns the values it parses, which live in its arena and die with it.
#ifndef KRINO_PLUGIN_TEST_CASE_DOCUMENT_HPP
#define KRINO_PLUGIN_TEST_CASE_DOCUMENT_HPP

#include <krino/host_document.h>
#include <krino/json_spans.hpp>
#include <krino/plugin.h>
#include <krino/plugin/error.hpp>

#include <krino/json_parse.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <atomic>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace krino {

// The four sections of a test case.
enum class Section : int { inputs = 0, actual_outputs = 1, expected_outputs = 2, metadata = 3 };

namespace detail {

inline const char* section_key(Section section) {
  static const char* const keys[] = {"inputs", "actualOutputs", "expectedOutputs", "metadata"};
  return keys[static_cast<int>(section)];
}

// The test case text of a call, with each section parsed only when an evaluator first reads it.
// A test case is mostly what evaluators do not read (an exact_match never looks at metadata, and
// tool definitions there can be most of the bytes), so parsing on demand saves most of the work.
//
// Each document gets a fresh monotonic arena over a buffer reused by the thread: reusing one arena
// through release() is not safe in Boost 1.81, whose arena keeps doubling its next block size
// across releases until allocation fails.
struct TestCaseDocument {
  uint64_t serial = 0;
  std::string_view text;  // the current call's bytes (the same bytes for every call of a serial)
  bool scanned = false;
  struct Span {
    std::size_t offset = 0;
    std::size_t size = 0;
    bool present = false;
  };
  Span spans[4];
  std::optional<boost::json::value> sections[4];
  std::optional<boost::json::value> whole;
  // Single members parsed on their own (an evaluator that reads actualOutputs.output need not
  // parse the tool calls beside it). Slots, not a growing vector: handed-out pointers stay valid.
  struct MemberSlot {
    Section section = Section::inputs;
    std::string key;
    std::optional<boost::json::value> value;  // empty: the member is absent, or `shared` holds it
    // A member whose bytes equal those of a member read before (an agent that made exactly the
    // expected tool calls, an output equal to the expected one) uses that member's value instead
    // of parsing the same bytes again: the same bytes always parse to the same value.
    const boost::json::value* shared = nullptr;
    // Where the member's bytes are in `text` (offsets: the cached document's text may move); size
    // 0 when the value was not parsed from the text.
    std::size_t offset = 0;
    std::size_t size = 0;
    const boost::json::value* get() const { return shared != nullptr ? shared : value ? &*value : nullptr; }
  };
  static constexpr std::size_t kMemberSlots = 16;
  MemberSlot members[kMemberSlots];
  std::size_t member_count = 0;
  alignas(std::max_align_t) unsigned char buffer[32 * 1024];
  std::optional<boost::json::monotonic_resource> arena;
  // The host's parse of this document (krino.host.document/1), when the host lends one: values are
  // then built from it instead of parsed from the text. Absent: the text is parsed, as always.
  const krino_host_document* host_document = nullptr;
  krino_json_ref host_root{nullptr, 0};

  // User-provided on purpose: `= default` would let make_shared value-initialise, zeroing the 32 KB
  // buffer each time a new document is made (a memset of 34,000 instructions per judge call, where
  // suspended calls keep their documents and each new call needs one). Every other member has its
  // own initialiser; the buffer needs none.
  TestCaseDocument() {}
  TestCaseDocument(const TestCaseDocument&) = delete;
  TestCaseDocument& operator=(const TestCaseDocument&) = delete;
  // The parsed values live in `arena`, which is declared after them and so would be destroyed
  // first; they must go before it does.
  ~TestCaseDocument() { release_values(); }

  void release_values() {
    for (auto& section : sections) section.reset();
    for (std::size_t i = 0; i < member_count; ++i) {
      members[i].value.reset();
      members[i].shared = nullptr;
      members[i].size = 0;
    }
    member_count = 0;
    whole.reset();
  }

  void reset(uint64_t new_serial, std::string_view new_text) {
    release_values();  // before their arena goes
    storage_ptr = boost::json::storage_ptr();
    arena.emplace(buffer, sizeof(buffer));
    storage_ptr = boost::json::storage_ptr(&*arena);
    serial = new_serial;
    text = new_text;
    scanned = false;
    for (auto& span : spans) span = Span{};
    host_document = nullptr;
    host_root = krino_json_ref{nullptr, 0};
  }

  // Uses the host's parse of the call's test case when the host lends one for this call.
  void use_host_document(const krino_host* host, const krino_call_context* ctx) {
    const krino_host_document* table = host_document_table(host);
    if (table == nullptr || ctx == nullptr) return;
    const krino_json_ref root = table->testcase(host, ctx);
    if (root.document == nullptr) return;
    host_document = table;
    host_root = root;
  }

  // The extension table of `host`, looked up once per thread and host.
  static const krino_host_document* host_document_table(const krino_host* host) {
    if (host == nullptr || host->struct_size < offsetof(krino_host, get_extension) + sizeof(host->get_extension) ||
        host->get_extension == nullptr)
      return nullptr;
    thread_local const krino_host* known_host = nullptr;
    thread_local const krino_host_document* known_table = nullptr;
    if (known_host != host) {
      const auto* table = static_cast<const krino_host_document*>(host->get_extension(host, KRINO_HOST_DOCUMENT_EXTENSION_ID));
      if (table != nullptr && table->struct_size < offsetof(krino_host_document, find) + sizeof(table->find)) table = nullptr;
      known_table = table;
      known_host = host;
    }
    return known_table;
  }

  // The host's value of a section, or nullopt when the helper must read the text itself (no host
  // parse, or a section the host could not parse: the text's parse then reports the error).
  std::optional<krino_json_ref> host_section(Section which) const {
    if (host_document == nullptr) return std::nullopt;
    const char* key = section_key(which);
    const krino_json_ref ref = host_document->find(host_root, key, std::char_traits<char>::length(key));
    krino_json_value value{};
    host_document->read(ref, &value);
    if (value.kind == KRINO_JSON_UNREADABLE) return std::nullopt;
    return ref;
  }

  // A Boost.JSON value equal to what krino::json::parse makes of the same text: integers that fit
  // 64 bits as integers, every other number as the host's correctly rounded double.
  boost::json::value build(krino_json_ref ref) {
    krino_json_value v{};
    host_document->read(ref, &v);
    const boost::json::storage_ptr& sp = storage();
    switch (v.kind) {
      case KRINO_JSON_FALSE: return boost::json::value(false, sp);
      case KRINO_JSON_TRUE: return boost::json::value(true, sp);
      case KRINO_JSON_NUMBER: return number(v, sp);
      case KRINO_JSON_STRING: return boost::json::value(boost::json::string_view(v.text, v.text_size), sp);
      case KRINO_JSON_ARRAY: {
        boost::json::array array(sp);
        array.reserve(v.count);
        for (krino_json_ref e = host_document->first(ref, nullptr, nullptr); e.document != nullptr;
             e = host_document->next(e, nullptr, nullptr))
          array.push_back(build(e));
        return boost::json::value(std::move(array));
      }
      case KRINO_JSON_OBJECT: {
        boost::json::object object(sp);
        object.reserve(v.count);
        const char* key = nullptr;
        std::size_t key_size = 0;
        for (krino_json_ref m = host_document->first(ref, &key, &key_size); m.document != nullptr;
             m = host_document->next(m, &key, &key_size))
          object.insert_or_assign(boost::json::string_view(key, key_size), build(m));
        return boost::json::value(std::move(object));
      }
      case KRINO_JSON_UNREADABLE: throw invalid_argument("test case is not valid JSON");
      default: return boost::json::value(nullptr, sp);
    }
  }

  static boost::json::value number(const krino_json_value& v, const boost::json::storage_ptr& sp) {
    const char* first = v.text;
    const char* last = v.text + v.text_size;
    bool integer = v.text_size > 0;
    for (const char* c = first; c != last && integer; ++c) integer = *c != '.' && *c != 'e' && *c != 'E';
    if (integer) {
      int64_t i = 0;
      if (auto r = std::from_chars(first, last, i); r.ec == std::errc() && r.ptr == last) return boost::json::value(i, sp);
      uint64_t u = 0;
      if (auto r = std::from_chars(first, last, u); r.ec == std::errc() && r.ptr == last) return boost::json::value(u, sp);
    }
    return boost::json::value(v.number, sp);
  }

  const boost::json::storage_ptr& storage() const { return storage_ptr; }
  boost::json::storage_ptr storage_ptr;  // the arena's, for the values built from the host's parse

  // Section spans the host sent with the call (ABI 1.1), used instead of a scan when they are
  // plausible: inside the text and each starting where a JSON value can.
  void use_host_sections(const krino_call_context* ctx) {
    if (ctx == nullptr || ctx->struct_size < offsetof(krino_call_context, testcase_sections) + sizeof(ctx->testcase_sections))
      return;
    Span found[4];
    bool any = false;
    for (int k = 0; k < 4; ++k) {
      const krino_span& span = ctx->testcase_sections[k];
      if (span.size == 0) continue;
      if (span.offset >= text.size() || span.size > text.size() - span.offset) return;
      const char first = text[static_cast<std::size_t>(span.offset)];
      if (first == ' ' || first == ',' || first == ':' || first == '}' || first == ']') return;
      found[k] = Span{static_cast<std::size_t>(span.offset), static_cast<std::size_t>(span.size), true};
      any = true;
    }
    if (!any) return;
    for (int k = 0; k < 4; ++k) spans[k] = found[k];
    scanned = true;
  }

  void scan() {
    if (scanned) return;
    std::size_t i = 0;
    while (i < text.size() && json::detail::is_space(text[i])) ++i;
    if (i == text.size() || text[i] != '{') throw invalid_argument("test case must be a JSON object");
    // The host sends validated JSON and sections are parsed (so checked) when read; this scan
    // only has to notice a document cut short, which would otherwise look like missing sections.
    std::size_t end_of_members = i + 1;
    bool complete = true;
    json::for_each_member(text, [&](std::string_view key_token, std::string_view value) {
      if (value.empty()) {
        complete = false;
        return false;
      }
      for (int k = 0; k < 4; ++k) {
        if (json::key_equals(key_token, section_key(static_cast<Section>(k))))
          spans[k] = Span{static_cast<std::size_t>(value.data() - text.data()), value.size(), true};
      }
      end_of_members = static_cast<std::size_t>(value.data() + value.size() - text.data());
      return true;
    });
    const std::size_t close = text.find_first_not_of(" \t\r\n", end_of_members);
    if (!complete || close == std::string_view::npos || text[close] != '}' ||
        text.find_first_not_of(" \t\r\n", close + 1) != std::string_view::npos)
      throw invalid_argument("test case is not valid JSON: it ends before its closing brace");
    scanned = true;
  }

  std::optional<std::string_view> raw(Section section) {
    scan();
    const Span& span = spans[static_cast<int>(section)];
    if (!span.present) return std::nullopt;
    return text.substr(span.offset, span.size);
  }

  const boost::json::object& section(Section section) {
    static const boost::json::object empty;
    auto& parsed = sections[static_cast<int>(section)];
    if (!parsed && host_document != nullptr) {
      if (const std::optional<krino_json_ref> ref = host_section(section)) {
        if (ref->document == nullptr) return empty;
        parsed.emplace(build(*ref));
      }
    }
    if (!parsed) {
      const std::optional<std::string_view> bytes = raw(section);
      if (!bytes) return empty;
      boost::system::error_code ec;
      parsed.emplace(krino::json::parse(*bytes, ec, &*arena));
      if (ec) throw invalid_argument(std::string("test case '") + section_key(section) + "' is not valid JSON: " + ec.message());
    }
    return parsed->is_object() ? parsed->get_object() : empty;
  }

  const boost::json::value* member(Section which, std::string_view key) {
    if (sections[static_cast<int>(which)]) {
      const boost::json::object& parsed = section(which);
      const auto it = parsed.find(key);
      return it == parsed.end() ? nullptr : &it->value();
    }
    for (std::size_t i = 0; i < member_count; ++i) {
      MemberSlot& slot = members[i];
      if (slot.section == which && slot.key == key) return slot.get();
    }
    if (member_count == kMemberSlots) {  // an evaluator reading many members: parse the section
      const boost::json::object& parsed = section(which);
      const auto it = parsed.find(key);
      return it == parsed.end() ? nullptr : &it->value();
    }
    MemberSlot& slot = members[member_count++];
    slot.section = which;
    slot.key.assign(key.data(), key.size());
    if (host_document != nullptr) {
      if (const std::optional<krino_json_ref> section_ref = host_section(which)) {
        const krino_json_ref ref = host_document->find(*section_ref, key.data(), key.size());
        if (ref.document == nullptr) return nullptr;
        slot.value.emplace(build(ref));
        return &*slot.value;
      }
    }
    const std::optional<std::string_view> bytes = raw(which);
    if (!bytes || bytes->empty() || bytes->front() != '{') return nullptr;
    // The list or object looked for is read by the parser as the scan reaches it, so its bytes
    // are walked once, not once by the scan and again by the parser.
    const std::optional<std::string_view> value =
        json::find_member_measured(*bytes, key, [&](std::string_view rest) { return read_member_value(slot, rest); });
    if (!value) return nullptr;
    const std::size_t offset = static_cast<std::size_t>(value->data() - text.data());
    if (slot.size != 0 && slot.offset == offset) return slot.get();  // read while scanning
    // Not read while scanning (bytes the parser rejects, or no delimiter after them): parsed on
    // its own as before, so the error is the one the member's own bytes give.
    slot.shared = nullptr;
    slot.size = 0;
    boost::system::error_code ec;
    slot.value.emplace(krino::json::parse(*value, ec, &*arena));
    if (ec) {
      slot.value.reset();
      throw invalid_argument(std::string("test case '") + section_key(which) + "." + std::string(key) +
                             "' is not valid JSON: " + ec.message());
    }
    slot.offset = offset;
    slot.size = value->size();
    return &*slot.value;
  }

  // Reads the value at the start of `rest` (the section's text from the member's value on) into
  // `slot` and returns its size, or npos when it is not a complete value followed by ',' or '}'
  // (then nothing is kept). A value whose bytes equal a member read before shares that member's
  // value instead of being parsed again (an agent that made exactly the expected tool calls, an
  // output equal to the expected one): the same bytes always parse to the same value.
  std::size_t read_member_value(MemberSlot& slot, std::string_view rest) {
    slot.shared = nullptr;
    slot.value.reset();
    slot.size = 0;
    const std::size_t offset = static_cast<std::size_t>(rest.data() - text.data());
    for (std::size_t i = 0; i < member_count; ++i) {
      const MemberSlot& other = members[i];
      if (&other == &slot || !other.value || other.size == 0 || other.size > rest.size()) continue;
      if (text.compare(other.offset, other.size, rest.substr(0, other.size)) == 0 && json::value_ends_member(rest, other.size)) {
        slot.shared = &*other.value;
        slot.offset = offset;
        slot.size = other.size;
        return other.size;
      }
    }
    unsigned char temp[4096];  // the parser's working stack, as krino::json::parse gives it
    json::ExactParser parser(&*arena, {}, {}, temp, sizeof temp);
    boost::system::error_code ec;
    const std::size_t used = parser.write_some(rest.data(), rest.size(), ec);
    if (ec || !parser.done() || !json::value_ends_member(rest, used)) return std::string_view::npos;
    slot.value.emplace(parser.release());
    slot.offset = offset;
    slot.size = used;
    return used;
  }

  const boost::json::object& document() {
    if (!whole && host_document != nullptr) {
      bool readable = true;
      for (int k = 0; k < 4 && readable; ++k) readable = host_section(static_cast<Section>(k)).has_value();
      if (readable) whole.emplace(build(host_root));
    }
    if (!whole) {
      boost::system::error_code ec;
      whole.emplace(krino::json::parse(text, ec, &*arena));
      if (ec) throw invalid_argument("test case is not valid JSON: " + ec.message());
      if (!whole->is_object()) throw invalid_argument("test case must be a JSON object");
    }
    return whole->get_object();
  }
};

// The test case behind a call, cached per thread under the host's document serial so every
// evaluator of this plugin that sees the same document scans it once and parses each section once.
//
// A call holds its document through the returned pointer. A call suspended inside host->judge()
// therefore keeps its test case while the thread runs other calls meanwhile: those find the
// thread's document still in use and start a new one instead of overwriting it.
inline std::shared_ptr<TestCaseDocument> testcase_document(const krino_call_context* ctx, const char* data,
                                                           size_t size, const krino_host* host = nullptr) {
  thread_local std::shared_ptr<TestCaseDocument> cache;
  const uint64_t serial = ctx != nullptr ? ctx->document_serial : 0;
  const std::string_view text(data, size);
  if (serial != 0 && cache != nullptr && cache->serial == serial && cache->text.size() == size) {
    cache->text = text;  // the same bytes, possibly at another address
    return cache;
  }
  if (cache == nullptr || cache.use_count() > 1) {
    cache = std::make_shared<TestCaseDocument>();
  } else {
    // Only this thread holds it now; pairs with the release of the last other holder.
    std::atomic_thread_fence(std::memory_order_acquire);
  }
  cache->reset(serial, text);
  cache->use_host_sections(ctx);
  cache->use_host_document(host, ctx);
  return cache;
}

}  // namespace detail
}  // namespace krino

#endif  // KRINO_PLUGIN_TEST_CASE_DOCUMENT_HPP
