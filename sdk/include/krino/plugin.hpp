// krino C++ helper layer: header-only, wraps the C ABI of plugin.h. Never part of the ABI itself:
// a plugin built with any version of this header talks to the host only through plugin.h.
//
// An evaluator is one class plus one registration line:
//
//   class WordCount {
//    public:
//     explicit WordCount(const krino::Config& config) : max_(config.get_int("max_words", 100)) {}
//     krino::EvalResult evaluate(const krino::TestCase& test_case, krino::CallContext& ctx);
//   };
//   KRINO_EVALUATOR(WordCount, "com.acme.word_count", "word_count", "1.0.0", "Counts words",
//                   KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, R"({"type":"object"})");
//   KRINO_PLUGIN("com.acme.words", "words", "1.0.0", "ACME", "MIT", "Word evaluators");
//
// Dataset resolvers, trace extractors and reporters register the same way (KRINO_DATASET_RESOLVER,
// KRINO_TRACE_EXTRACTOR, KRINO_REPORTER, below).
//
// Every trampoline catches every exception: a krino::Error becomes its status code and message,
// any other exception KRINO_INTERNAL. Requires C++17 and Boost.JSON (one translation unit of the
// plugin must include <boost/json/src.hpp>; krino_add_plugin() adds it).
#ifndef KRINO_PLUGIN_HPP
#define KRINO_PLUGIN_HPP

#include <krino/json_spans.hpp>
#include <krino/json_text.hpp>
#include <krino/plugin.h>

#include <boost/json.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace krino {

// ----------------------------------------------------------------------------------------------
// Errors
// ----------------------------------------------------------------------------------------------

// Thrown by plugin code to report a non-OK status with a message.
class Error : public std::runtime_error {
 public:
  Error(krino_status code, const std::string& message) : std::runtime_error(message), code_(code) {}
  krino_status code() const noexcept { return code_; }

 private:
  krino_status code_;
};

inline Error invalid_argument(const std::string& message) { return Error(KRINO_INVALID_ARGUMENT, message); }

// ----------------------------------------------------------------------------------------------
// Sinks
// ----------------------------------------------------------------------------------------------

inline void write(krino_sink* sink, std::string_view bytes) {
  if (sink != nullptr && sink->write != nullptr) sink->write(sink, bytes.data(), bytes.size());
}

// Compact JSON with doubles in their shortest round-trip form ("1.0", not Boost's "1E0").
inline void write_json(krino_sink* sink, const boost::json::value& value) {
  write(sink, json::to_compact_json(value));
}

namespace detail {
// Runs `body` and turns every exception into a status plus a message in `error`.
template <class Body>
krino_status guarded(krino_sink* error, Body&& body) noexcept {
  try {
    return body();
  } catch (const Error& e) {
    write(error, e.what());
    return e.code();
  } catch (const std::bad_alloc&) {
    write(error, "out of memory");
    return KRINO_RESOURCE_EXHAUSTED;
  } catch (const std::exception& e) {
    write(error, e.what());
    return KRINO_INTERNAL;
  } catch (...) {
    write(error, "unknown exception");
    return KRINO_INTERNAL;
  }
}

inline boost::json::object parse_object(const char* data, size_t size, const char* what) {
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(std::string_view(data, size), ec);
  if (ec) throw invalid_argument(std::string(what) + " is not valid JSON: " + ec.message());
  if (!value.is_object()) throw invalid_argument(std::string(what) + " must be a JSON object");
  return std::move(value.as_object());
}
}  // namespace detail

// ----------------------------------------------------------------------------------------------
// Configuration: the user's options for one component, already validated against its schema.
// ----------------------------------------------------------------------------------------------

class Config {
 public:
  Config() = default;
  explicit Config(boost::json::object object) : object_(std::move(object)) {}

  const boost::json::object& json() const { return object_; }
  bool has(std::string_view key) const { return find(key) != nullptr; }

  // nullptr when absent or null.
  const boost::json::value* find(std::string_view key) const {
    auto it = object_.find(key);
    if (it == object_.end() || it->value().is_null()) return nullptr;
    return &it->value();
  }

  std::string get_string(std::string_view key, std::string_view fallback = {}) const {
    const auto* v = find(key);
    if (v == nullptr) return std::string(fallback);
    if (!v->is_string()) throw invalid_argument("option '" + std::string(key) + "' must be a string");
    return std::string(v->get_string());
  }
  double get_double(std::string_view key, double fallback) const {
    const auto* v = find(key);
    if (v == nullptr) return fallback;
    if (v->is_double()) return v->get_double();
    if (v->is_int64()) return static_cast<double>(v->get_int64());
    if (v->is_uint64()) return static_cast<double>(v->get_uint64());
    throw invalid_argument("option '" + std::string(key) + "' must be a number");
  }
  std::optional<double> get_optional_double(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    return get_double(key, 0.0);
  }
  int64_t get_int(std::string_view key, int64_t fallback) const {
    const auto* v = find(key);
    if (v == nullptr) return fallback;
    if (v->is_int64()) return v->get_int64();
    if (v->is_uint64() && v->get_uint64() <= static_cast<uint64_t>(INT64_MAX)) return static_cast<int64_t>(v->get_uint64());
    // A whole double such as 3.0 counts; the range check comes first, as casting an out-of-range
    // double to an integer is undefined behaviour. 2^63 is exactly representable as a double.
    if (v->is_double()) {
      const double d = v->get_double();
      if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == static_cast<double>(static_cast<int64_t>(d)))
        return static_cast<int64_t>(d);
    }
    throw invalid_argument("option '" + std::string(key) + "' must be an integer");
  }
  bool get_bool(std::string_view key, bool fallback) const {
    const auto* v = find(key);
    if (v == nullptr) return fallback;
    if (!v->is_bool()) throw invalid_argument("option '" + std::string(key) + "' must be true or false");
    return v->get_bool();
  }
  std::vector<std::string> get_strings(std::string_view key) const {
    std::vector<std::string> out;
    const auto* v = find(key);
    if (v == nullptr) return out;
    if (!v->is_array()) throw invalid_argument("option '" + std::string(key) + "' must be a list of strings");
    for (const auto& item : v->get_array()) {
      if (!item.is_string()) throw invalid_argument("option '" + std::string(key) + "' must be a list of strings");
      out.emplace_back(item.get_string());
    }
    return out;
  }

 private:
  boost::json::object object_;
};

// ----------------------------------------------------------------------------------------------
// Test case (krino.testcase/1): a read-only view, parsed section by section on first use.
// ----------------------------------------------------------------------------------------------

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
      parsed.emplace(boost::json::parse(*bytes, ec, &*arena));
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
    slot.value.emplace(boost::json::parse(*value, ec, &*arena));
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
      whole.emplace(boost::json::parse(text, ec, &*arena));
      if (ec) throw invalid_argument("test case is not valid JSON: " + ec.message());
      if (!whole->is_object()) throw invalid_argument("test case must be a JSON object");
    }
    return whole->get_object();
  }
};

}  // namespace detail

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

// ----------------------------------------------------------------------------------------------
// Eval result (krino.evalresult/1)
// ----------------------------------------------------------------------------------------------

struct EvalResult {
  std::string name;
  std::optional<double> score;  // nullopt: could not be computed (say why in `reason`)
  bool success = false;
  std::optional<double> threshold;
  std::string reason;
  boost::json::object metadata;

  // success = score >= threshold, the rule for every evaluator where higher is better.
  static EvalResult scored(std::string name, double score, double threshold, std::string reason = {}) {
    EvalResult r;
    r.name = std::move(name);
    r.score = score;
    r.threshold = threshold;
    r.success = score >= threshold;
    r.reason = std::move(reason);
    return r;
  }
  static EvalResult unscored(std::string name, std::optional<double> threshold, std::string reason) {
    EvalResult r;
    r.name = std::move(name);
    r.threshold = threshold;
    r.reason = std::move(reason);
    return r;
  }

  // The krino.evalresult/1 document, written straight to text (this runs once per evaluator per item).
  void append_json(std::string& out) const {
    if (score && !(*score - *score == 0.0))
      throw Error(KRINO_INTERNAL, "evaluator '" + name + "' produced a non-finite score");
    out += "{\"name\":";
    json::append_json_string(out, name);
    out += ",\"score\":";
    if (score) json::append_double(out, *score);
    else out += "null";
    out += success ? ",\"success\":true" : ",\"success\":false";
    out += ",\"threshold\":";
    if (threshold) json::append_double(out, *threshold);
    else out += "null";
    out += ",\"reason\":";
    json::append_json_string(out, reason);
    out += ",\"metadata\":";
    json::append_compact_json(out, metadata);
    out += '}';
  }

  boost::json::object to_json() const {
    std::string text;
    append_json(text);
    return boost::json::parse(text).as_object();
  }
};

// ----------------------------------------------------------------------------------------------
// Call context: the host's services for one call.
// ----------------------------------------------------------------------------------------------

class CallContext {
 public:
  CallContext(const krino_host* host, const krino_call_context* ctx) : host_(host), ctx_(ctx) {}

  uint64_t seed() const { return ctx_ != nullptr ? ctx_->seed : 0; }
  uint32_t run_index() const { return ctx_ != nullptr ? ctx_->run_index : 0; }
  uint64_t item_index() const { return ctx_ != nullptr ? ctx_->item_index : 0; }
  const krino_call_context* raw() const { return ctx_; }

  bool is_cancelled() const {
    return host_ != nullptr && host_->is_cancelled != nullptr && host_->is_cancelled(host_, ctx_) != 0;
  }

  void log(krino_log_level level, std::string_view message) const {
    if (host_ != nullptr && host_->log != nullptr) host_->log(host_, level, nullptr, message.data(), message.size());
  }

  // Sends a krino.judgerequest/1 document and returns the krino.judgeresponse/1 document.
  // Throws krino::Error with the host's status when the judge cannot answer.
  boost::json::value judge(const boost::json::value& request) const;

 private:
  const krino_host* host_;
  const krino_call_context* ctx_;
};

namespace detail {
// A sink that appends into a std::string (for host replies the plugin reads back).
struct StringSink {
  krino_sink sink{};
  std::string text;
  StringSink() {
    sink.struct_size = sizeof(krino_sink);
    sink.host_data = this;
    sink.write = [](krino_sink* s, const char* data, size_t size) {
      static_cast<StringSink*>(s->host_data)->text.append(data, size);
    };
  }
  StringSink(const StringSink&) = delete;
  StringSink& operator=(const StringSink&) = delete;
};
}  // namespace detail

inline boost::json::value CallContext::judge(const boost::json::value& request) const {
  if (host_ == nullptr || host_->judge == nullptr) throw Error(KRINO_UNAVAILABLE, "the host offers no judge service");
  std::string body = boost::json::serialize(request);
  detail::StringSink response;
  detail::StringSink error;
  krino_status status = host_->judge(host_, ctx_, body.data(), body.size(), &response.sink, &error.sink);
  if (status != KRINO_OK) throw Error(status, error.text.empty() ? "judge call failed" : error.text);
  boost::system::error_code ec;
  boost::json::value reply = boost::json::parse(response.text, ec);
  if (ec) throw Error(KRINO_INTERNAL, "judge reply is not valid JSON: " + ec.message());
  return reply;
}

// ----------------------------------------------------------------------------------------------
// Dataset resolver support types
// ----------------------------------------------------------------------------------------------

struct DatasetInfo {
  std::string name;
  std::string description;
  std::optional<uint64_t> size_hint;  // expected number of examples, when cheap to know
};

// One krino.event/1 document handed to a reporter; parsed only if the reporter asks.
class Event {
 public:
  explicit Event(std::string_view raw) : raw_(raw) {}
  std::string_view raw() const { return raw_; }
  const boost::json::object& json() const {
    if (!parsed_) {
      boost::system::error_code ec;
      value_ = boost::json::parse(raw_, ec, &arena_);
      if (ec || !value_.is_object()) throw invalid_argument("event is not a JSON object");
      parsed_ = true;
    }
    return value_.get_object();
  }
  // The "event" field: run_started, item_finished, run_finished, experiment_finished.
  std::string_view type() const {
    auto it = json().find("event");
    return it != json().end() && it->value().is_string() ? std::string_view(it->value().get_string()) : std::string_view();
  }

 private:
  std::string_view raw_;
  mutable bool parsed_ = false;
  mutable boost::json::monotonic_resource arena_;
  mutable boost::json::value value_;
};

// What a resolver stream's next() produced.
enum class Next { record, end, bad };

// ----------------------------------------------------------------------------------------------
// Registry of the plugin's components, filled by the registration macros at load time.
// ----------------------------------------------------------------------------------------------

namespace detail {

struct Registry {
  std::vector<krino_component> components;
  const krino_host* host = nullptr;
  krino_plugin_descriptor descriptor{};
};

inline Registry& registry() {
  static Registry instance;
  return instance;
}

inline const krino_host* host() { return registry().host; }

inline bool register_component(int32_t kind, const char* id, const char* name, const char* version,
                               const char* description, uint64_t capabilities, const char* schema,
                               const void* vtable) {
  krino_component c{};
  c.struct_size = sizeof(krino_component);
  c.kind = kind;
  c.id = id;
  c.name = name;
  c.version = version;
  c.description = description;
  c.capabilities = capabilities;
  c.config_schema = schema;
  c.vtable = vtable;
  registry().components.push_back(c);
  return true;
}

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

// --- evaluator trampolines -------------------------------------------------------------------

template <class T>
struct EvaluatorInstance {
  const krino_host* host;
  T evaluator;
};

template <class T>
struct EvaluatorTrampolines {
  static krino_status create(const krino_host* host, const char* config, size_t size, void** out, krino_sink* error) {
    return guarded(error, [&] {
      Config cfg(parse_object(config, size, "configuration"));
      *out = new EvaluatorInstance<T>{host, T(cfg)};
      return KRINO_OK;
    });
  }
  static void destroy(void* instance) { delete static_cast<EvaluatorInstance<T>*>(instance); }
  static krino_status evaluate(void* instance, const krino_call_context* ctx, const char* data, size_t size,
                               krino_sink* result, krino_sink* error) {
    return guarded(error, [&] {
      auto* self = static_cast<EvaluatorInstance<T>*>(instance);
      const std::shared_ptr<TestCaseDocument> document = testcase_document(ctx, data, size);
      TestCase test_case(*document);
      CallContext call(self->host, ctx);
      EvalResult r = self->evaluator.evaluate(test_case, call);
      thread_local std::string text;
      text.clear();
      r.append_json(text);
      write(result, text);
      return KRINO_OK;
    });
  }
  static const krino_evaluator_vtable* vtable() {
    static const krino_evaluator_vtable table = {sizeof(krino_evaluator_vtable), &create, &destroy, &evaluate, nullptr};
    return &table;
  }
};

// --- reporter trampolines --------------------------------------------------------------------

template <class T>
struct ReporterTrampolines {
  static krino_status create(const krino_host*, const char* config, size_t size, void** out, krino_sink* error) {
    return guarded(error, [&] {
      Config cfg(parse_object(config, size, "configuration"));
      *out = new T(cfg);
      return KRINO_OK;
    });
  }
  static void destroy(void* instance) { delete static_cast<T*>(instance); }
  static krino_status on_event(void* instance, const char* data, size_t size, krino_sink* error) {
    return guarded(error, [&] {
      Event event(std::string_view(data, size));
      static_cast<T*>(instance)->on_event(event);
      return KRINO_OK;
    });
  }
  static krino_status flush(void* instance, krino_sink* error) {
    return guarded(error, [&] {
      static_cast<T*>(instance)->flush();
      return KRINO_OK;
    });
  }
  static const krino_reporter_vtable* vtable() {
    static const krino_reporter_vtable table = {sizeof(krino_reporter_vtable), &create, &destroy, &on_event, &flush};
    return &table;
  }
};

// --- dataset resolver trampolines --------------------------------------------------------------

template <class T, class = void>
struct has_decode : std::false_type {};
template <class T>
struct has_decode<T, std::void_t<decltype(std::declval<const T&>().decode(std::string_view()))>> : std::true_type {};

template <class T, class = void>
struct has_record_is_example : std::false_type {};
template <class T>
struct has_record_is_example<T, std::void_t<decltype(std::declval<const T&>().record_is_example(std::string_view()))>>
    : std::true_type {};

template <class T>
struct ResolverTrampolines {
  static krino_status open(const krino_host* host, const char* uri, const char* options, size_t size, void** out,
                           krino_sink* info, krino_sink* error) {
    return guarded(error, [&] {
      Config cfg(parse_object(options, size, "dataset options"));
      DatasetInfo dataset_info;
      std::unique_ptr<T> stream(new T(host, std::string(uri), cfg, dataset_info));
      boost::json::object o;
      o["name"] = dataset_info.name;
      o["description"] = dataset_info.description;
      if (dataset_info.size_hint) o["sizeHint"] = *dataset_info.size_hint;
      write_json(info, o);
      *out = stream.release();
      return KRINO_OK;
    });
  }
  static krino_status next(void* stream, krino_sink* record, krino_sink* location, int32_t* outcome,
                           krino_sink* error) {
    return guarded(error, [&] {
      // Reused per thread: next() runs on the serial input stage, once per record, and the sinks
      // copy synchronously, so nothing outlives the call.
      thread_local std::string rec;
      thread_local std::string loc;
      thread_local std::string message;
      rec.clear();
      loc.clear();
      message.clear();
      Next n = static_cast<T*>(stream)->next(rec, loc, message);
      write(location, loc);
      switch (n) {
        case Next::record:
          write(record, rec);
          *outcome = KRINO_NEXT_RECORD;
          break;
        case Next::end:
          *outcome = KRINO_NEXT_END;
          break;
        case Next::bad:
          write(error, message);
          *outcome = KRINO_NEXT_BAD;
          break;
      }
      return KRINO_OK;
    });
  }
  static krino_status decode(void* stream, const char* data, size_t size, krino_sink* example, krino_sink* error) {
    return guarded(error, [&] {
      if constexpr (has_decode<T>::value) {
        const T* self = static_cast<const T*>(stream);
        const std::string_view record(data, size);
        if constexpr (has_record_is_example<T>::value) {
          if (self->record_is_example(record)) {
            write(example, record);
            return KRINO_OK;
          }
        }
        write_json(example, self->decode(record));
      }
      return KRINO_OK;
    });
  }
  static void close(void* stream) { delete static_cast<T*>(stream); }
  static const krino_dataset_resolver_vtable* vtable(const char* schemes, const char* extensions) {
    static const krino_dataset_resolver_vtable table = {
        sizeof(krino_dataset_resolver_vtable), schemes, extensions, &open, &next,
        has_decode<T>::value ? &decode : nullptr, &close};
    return &table;
  }
};

// --- trace extractor trampolines ----------------------------------------------------------------

// A raw trace as an extractor reads it: parsed with a nesting limit fit for recorded agent traces
// (Boost.JSON's default of 32 is too shallow for a conversation inside a span inside a batch).
inline boost::json::value parse_raw_trace(const char* data, size_t size, boost::system::error_code& ec) {
  boost::json::parse_options options;
  options.max_depth = 512;
  return boost::json::parse(std::string_view(data, size), ec, {}, options);
}

template <class T>
struct TraceExtractorTrampolines {
  static int32_t detect(const char* data, size_t size) noexcept {
    try {
      boost::system::error_code ec;
      const boost::json::value document = parse_raw_trace(data, size, ec);
      if (ec) return 0;
      const int confidence = T::detect(document);
      return confidence < 0 ? 0 : (confidence > 100 ? 100 : confidence);
    } catch (...) {
      return 0;  // a document that makes detection throw is not one this extractor can read
    }
  }
  static krino_status extract(const char* data, size_t size, krino_sink* trace, krino_sink* error) noexcept {
    return guarded(error, [&] {
      boost::system::error_code ec;
      const boost::json::value document = parse_raw_trace(data, size, ec);
      if (ec) {
        std::string start(std::string_view(data, size).substr(0, 40));
        for (char& c : start)
          if (c == '\n' || c == '\r' || c == '\t') c = ' ';
        throw invalid_argument("the trace is not valid JSON (" + ec.message() + "); it begins: " + start);
      }
      write_json(trace, T::extract(document).to_json());
      return KRINO_OK;
    });
  }
  static const krino_trace_extractor_vtable* vtable() {
    static const krino_trace_extractor_vtable table = {sizeof(krino_trace_extractor_vtable), &detect, &extract};
    return &table;
  }
};

}  // namespace detail
}  // namespace krino

#define KRINO_DETAIL_CONCAT2(a, b) a##b
#define KRINO_DETAIL_CONCAT(a, b) KRINO_DETAIL_CONCAT2(a, b)

// Registers class T as an evaluator component. T needs T(const krino::Config&) and
// krino::EvalResult evaluate(const krino::TestCase&, krino::CallContext&).
#define KRINO_EVALUATOR(T, id, name, version, description, capabilities, schema)                          \
  static const bool KRINO_DETAIL_CONCAT(krino_registered_, __COUNTER__) = ::krino::detail::register_component( \
      KRINO_KIND_EVALUATOR, id, name, version, description, capabilities, schema,                          \
      ::krino::detail::EvaluatorTrampolines<T>::vtable())

// Registers class T as a reporter. T needs T(const krino::Config&),
// void on_event(const krino::Event& event) and void flush().
#define KRINO_REPORTER(T, id, name, version, description, schema)                                          \
  static const bool KRINO_DETAIL_CONCAT(krino_registered_, __COUNTER__) = ::krino::detail::register_component( \
      KRINO_KIND_REPORTER, id, name, version, description, 0, schema,                                      \
      ::krino::detail::ReporterTrampolines<T>::vtable())

// Registers class T as a dataset resolver. T needs
// T(const krino_host*, std::string uri, const krino::Config&, krino::DatasetInfo&),
// krino::Next next(std::string& record, std::string& location, std::string& error_message), and
// optionally boost::json::object decode(std::string_view record) const, which must be thread-safe,
// and optionally bool record_is_example(std::string_view record) const (thread-safe too): true when
// the record already is a canonical krino.example/1 document, which is then passed on unchanged.
#define KRINO_DATASET_RESOLVER(T, id, name, version, description, schemes, extensions, schema)             \
  static const bool KRINO_DETAIL_CONCAT(krino_registered_, __COUNTER__) = ::krino::detail::register_component( \
      KRINO_KIND_DATASET_RESOLVER, id, name, version, description,                                        \
      KRINO_CAP_DETERMINISTIC |                                                                            \
          (::krino::detail::has_record_is_example<T>::value && ::krino::detail::has_decode<T>::value       \
               ? KRINO_CAP_PASSES_EXAMPLES                                                                 \
               : uint64_t{0}),                                                                             \
      schema,                                                                                              \
      ::krino::detail::ResolverTrampolines<T>::vtable(schemes, extensions))

// Registers class T as a trace extractor. The kind has no instances and no configuration: T
// needs two static, thread-safe functions over the parsed raw document,
//   static int detect(const boost::json::value& raw);    confidence 0..100 that raw is T's format
//   static R extract(const boost::json::value& raw);     R has boost::json::object to_json() const,
// usually krino::trace::Trace (<krino/trace/trace.hpp>). extract throws krino::Error for input it
// cannot read; detect should not throw (an exception counts as 0). Raw text that is not JSON gets
// 0 from detect and INVALID_ARGUMENT from extract without reaching T.
#define KRINO_TRACE_EXTRACTOR(T, id, name, version, description, capabilities, schema)                    \
  static const bool KRINO_DETAIL_CONCAT(krino_registered_, __COUNTER__) = ::krino::detail::register_component( \
      KRINO_KIND_TRACE_EXTRACTOR, id, name, version, description, capabilities, schema,                    \
      ::krino::detail::TraceExtractorTrampolines<T>::vtable())

// Defines the plugin's entry point. Use exactly once per plugin.
#define KRINO_PLUGIN(plugin_id, plugin_name, plugin_version, plugin_vendor, plugin_license, plugin_description)                                        \
  extern "C" KRINO_EXPORT const krino_plugin_descriptor* krino_plugin_entry(const krino_host_info* info,    \
                                                                            krino_sink* error) {             \
    if (info == nullptr || info->abi_major != KRINO_ABI_MAJOR) {                                            \
      ::krino::write(error, "unsupported host ABI major version");                                          \
      return nullptr;                                                                                       \
    }                                                                                                       \
    auto& reg = ::krino::detail::registry();                                                                \
    reg.host = info->host;                                                                                  \
    auto& d = reg.descriptor;                                                                               \
    d.struct_size = sizeof(krino_plugin_descriptor);                                                        \
    d.abi_major = KRINO_ABI_MAJOR;                                                                          \
    d.abi_minor = KRINO_ABI_MINOR;                                                                          \
    d.min_host_abi_minor = 0;                                                                               \
    d.id = plugin_id;                                                                                              \
    d.name = plugin_name;                                                                                          \
    d.version = plugin_version;                                                                                    \
    d.vendor = plugin_vendor;                                                                                      \
    d.license = plugin_license;                                                                                    \
    d.description = plugin_description;                                                                           \
    d.component_count = reg.components.size();                                                              \
    d.components = reg.components.data();                                                                   \
    d.deinit = nullptr;                                                                                     \
    d.get_extension = nullptr;                                                                              \
    return &d;                                                                                              \
  }

#endif  // KRINO_PLUGIN_HPP
