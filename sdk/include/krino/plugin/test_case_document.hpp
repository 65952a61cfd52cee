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

#include <krino/json_spans.hpp>
#include <krino/plugin.h>
#include <krino/plugin/error.hpp>

#include <krino/json_parse.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <atomic>
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
    std::optional<boost::json::value> value;  // empty: the member is absent
  };
  static constexpr std::size_t kMemberSlots = 16;
  MemberSlot members[kMemberSlots];
  std::size_t member_count = 0;
  alignas(std::max_align_t) unsigned char buffer[32 * 1024];
  std::optional<boost::json::monotonic_resource> arena;

  TestCaseDocument() = default;
  TestCaseDocument(const TestCaseDocument&) = delete;
  TestCaseDocument& operator=(const TestCaseDocument&) = delete;
  // The parsed values live in `arena`, which is declared after them and so would be destroyed
  // first; they must go before it does.
  ~TestCaseDocument() { release_values(); }

  void release_values() {
    for (auto& section : sections) section.reset();
    for (std::size_t i = 0; i < member_count; ++i) members[i].value.reset();
    member_count = 0;
    whole.reset();
  }

  void reset(uint64_t new_serial, std::string_view new_text) {
    release_values();  // before their arena goes
    arena.emplace(buffer, sizeof(buffer));
    serial = new_serial;
    text = new_text;
    scanned = false;
    for (auto& span : spans) span = Span{};
  }

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
      if (slot.section == which && slot.key == key) return slot.value ? &*slot.value : nullptr;
    }
    if (member_count == kMemberSlots) {  // an evaluator reading many members: parse the section
      const boost::json::object& parsed = section(which);
      const auto it = parsed.find(key);
      return it == parsed.end() ? nullptr : &it->value();
    }
    MemberSlot& slot = members[member_count++];
    slot.section = which;
    slot.key.assign(key.data(), key.size());
    const std::optional<std::string_view> bytes = raw(which);
    if (!bytes || bytes->empty() || bytes->front() != '{') return nullptr;
    const std::optional<std::string_view> value = json::find_member(*bytes, key);
    if (!value) return nullptr;
    boost::system::error_code ec;
    slot.value.emplace(krino::json::parse(*value, ec, &*arena));
    if (ec) {
      slot.value.reset();
      throw invalid_argument(std::string("test case '") + section_key(which) + "." + std::string(key) +
                             "' is not valid JSON: " + ec.message());
    }
    return &*slot.value;
  }

  const boost::json::object& document() {
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
                                                           size_t size) {
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
  return cache;
}

}  // namespace detail
}  // namespace krino

#endif  // KRINO_PLUGIN_TEST_CASE_DOCUMENT_HPP
