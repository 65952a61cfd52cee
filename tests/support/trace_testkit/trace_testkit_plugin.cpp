// Trace extractors for testing the host's handling of extractors:
//   tie_a, tie_b     both claim {"tie": true} with confidence 40 (an ambiguous document)
//   identity         claims (confidence 10) and returns any object with "toolCalls" as the trace itself
//   malformed        returns a "trace" without toolCalls
//   thrower          throws a std::runtime_error from extract (the trampoline turns it into INTERNAL)
#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <stdexcept>
#include <string>

namespace {

struct Document {
  boost::json::object value;
  boost::json::object to_json() const { return value; }
};

bool is_tie(const boost::json::value& raw) {
  const boost::json::value* tie = raw.is_object() ? raw.get_object().if_contains("tie") : nullptr;
  return tie != nullptr && tie->is_bool() && tie->get_bool();
}

Document named_trace(const char* output) {
  return Document{{{"output", output}, {"toolCalls", boost::json::array()}}};
}

struct TieA {
  static int detect(const boost::json::value& raw) { return is_tie(raw) ? 40 : 0; }
  static Document extract(const boost::json::value&) { return named_trace("a"); }
};

struct TieB {
  static int detect(const boost::json::value& raw) { return is_tie(raw) ? 40 : 0; }
  static Document extract(const boost::json::value&) { return named_trace("b"); }
};

struct Identity {
  static int detect(const boost::json::value& raw) { return raw.is_object() && raw.get_object().contains("toolCalls") ? 10 : 0; }
  static Document extract(const boost::json::value& raw) {
    if (!raw.is_object()) throw krino::invalid_argument("identity takes an object");
    return Document{raw.get_object()};
  }
};

struct Malformed {
  static int detect(const boost::json::value&) { return 0; }
  static Document extract(const boost::json::value&) { return Document{{{"output", "no calls list"}}}; }
};

struct Thrower {
  static int detect(const boost::json::value&) { return 0; }
  static Document extract(const boost::json::value&) { throw std::runtime_error("the extractor broke"); }
};

}  // namespace

KRINO_TRACE_EXTRACTOR(TieA, "test.tie_a", "tie_a", "1.0.0", "Claims tie documents", KRINO_CAP_THREAD_SAFE, nullptr);
KRINO_TRACE_EXTRACTOR(TieB, "test.tie_b", "tie_b", "1.0.0", "Claims tie documents too", KRINO_CAP_THREAD_SAFE, nullptr);
KRINO_TRACE_EXTRACTOR(Identity, "test.identity", "identity", "1.0.0", "A canonical trace, as it is", KRINO_CAP_THREAD_SAFE, nullptr);
KRINO_TRACE_EXTRACTOR(Malformed, "test.malformed", "malformed", "1.0.0", "Writes a trace without toolCalls", 0, nullptr);
KRINO_TRACE_EXTRACTOR(Thrower, "test.thrower", "thrower", "1.0.0", "Throws from extract", 0, nullptr);

KRINO_PLUGIN("test.trace_testkit", "trace-testkit", "1.0.0", "krino", "Apache-2.0", "Trace extractors for testing the host");
