// krino-testkit: components that exist only to test the host through the real ABI.
//   resolver  `sequence`  URIs "seq:N" : N examples, index i has inputs.input = i,
//                                         actualOutputs.output = i, metadata from options;
//                                         "bad_every": k makes every k-th record malformed;
//                                         "id_every": k gives ids ("item-i") to i % k == 0 only
//                                         (default 1: every example; 0: none).
//   evaluator `echo_score`               : score = actualOutputs.score if present, else 1; may sleep
//                                          a pseudo-random time (max_sleep_ms) and throw on items
//                                          whose input is in "throw_on"; fails (non-OK) on "fail_on";
//                                          "report_context": true puts the call's seed, item index
//                                          and test case section spans in the result's metadata;
//                                          "fail_on_env": NAME applies fail_on only while the
//                                          environment variable NAME is set;
//                                          "misbehave_on": i makes the item whose input is i, after
//                                          "misbehave_after_ms", do "misbehaviour": segfault, abort,
//                                          exit0 (calls exit(0)) or hang (sleeps for ever).
//   reporter  `capture`                  : appends every event to "path", one per line, flushing
//                                          only in flush() (so a test can see that flush happened).
#include <krino/plugin.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <thread>

#include <unistd.h>

namespace {

class SequenceStream {
 public:
  SequenceStream(const krino_host*, std::string uri, const krino::Config& options, krino::DatasetInfo& info) {
    if (uri.rfind("seq:", 0) != 0) throw krino::invalid_argument("sequence URIs look like seq:N");
    count_ = std::stoull(uri.substr(4));
    bad_every_ = static_cast<uint64_t>(options.get_int("bad_every", 0));
    per_item_score_ = options.get_bool("score_from_index", false);
    id_every_ = static_cast<uint64_t>(options.get_int("id_every", 1));
    info.name = "sequence";
    info.size_hint = count_;
  }
  krino::Next next(std::string& record, std::string& location, std::string& error) {
    if (index_ >= count_) return krino::Next::end;
    const uint64_t i = index_++;
    location = "seq:" + std::to_string(i + 1);
    if (bad_every_ > 0 && (i + 1) % bad_every_ == 0) {
      error = "record " + std::to_string(i) + " is deliberately malformed";
      return krino::Next::bad;
    }
    boost::json::object example;
    if (id_every_ > 0 && i % id_every_ == 0) example["id"] = "item-" + std::to_string(i);
    example["inputs"] = boost::json::object{{"input", i}};
    boost::json::object actual{{"output", i}};
    if (per_item_score_) actual["score"] = static_cast<double>(i % 5) / 4.0;
    example["actualOutputs"] = std::move(actual);
    example["expectedOutputs"] = boost::json::object{{"output", i}};
    example["metadata"] = boost::json::object();
    record = boost::json::serialize(example);
    return krino::Next::record;
  }

 private:
  uint64_t count_ = 0;
  uint64_t index_ = 0;
  uint64_t bad_every_ = 0;
  uint64_t id_every_ = 1;
  bool per_item_score_ = false;
};

class EchoScore {
 public:
  explicit EchoScore(const krino::Config& config)
      : name_(config.get_string("name", "echo_score")),
        threshold_(config.get_double("threshold", 0.5)),
        max_sleep_ms_(config.get_int("max_sleep_ms", 0)),
        report_context_(config.get_bool("report_context", false)),
        misbehaves_(config.has("misbehave_on")),
        misbehave_on_(config.get_int("misbehave_on", 0)),
        misbehave_after_ms_(config.get_int("misbehave_after_ms", 0)),
        misbehaviour_(config.get_string("misbehaviour", "segfault")),
        fail_on_env_(config.get_string("fail_on_env", "")) {
    if (const auto* v = config.find("throw_on")) for (const auto& x : v->as_array()) throw_on_.push_back(x.to_number<int64_t>());
    if (const auto* v = config.find("fail_on")) for (const auto& x : v->as_array()) fail_on_.push_back(x.to_number<int64_t>());
  }
  krino::EvalResult evaluate(const krino::TestCase& test_case, krino::CallContext& ctx) {
    const int64_t input = test_case.input() != nullptr ? test_case.input()->to_number<int64_t>() : -1;
    if (max_sleep_ms_ > 0) {
      std::mt19937_64 rng(ctx.seed());
      std::this_thread::sleep_for(std::chrono::milliseconds(rng() % static_cast<uint64_t>(max_sleep_ms_ + 1)));
    }
    if (misbehaves_ && input == misbehave_on_) misbehave();
    for (int64_t x : throw_on_) if (x == input) throw std::runtime_error("boom on " + std::to_string(input));
    const bool failing = fail_on_env_.empty() || std::getenv(fail_on_env_.c_str()) != nullptr;
    for (int64_t x : fail_on_) if (failing && x == input) throw krino::Error(KRINO_FAILED_PRECONDITION, "refused " + std::to_string(input));
    double score = 1.0;
    if (const auto* s = krino::TestCase::lookup(test_case.actual_outputs(), "score")) score = s->to_number<double>();
    krino::EvalResult result = krino::EvalResult::scored(name_, score, threshold_, "echo");
    if (report_context_) {
      result.metadata["seed"] = ctx.seed();
      result.metadata["itemIndex"] = ctx.item_index();
      boost::json::array sections;
      for (const krino_span& span : ctx.raw()->testcase_sections) sections.push_back(boost::json::array{span.offset, span.size});
      result.metadata["sections"] = std::move(sections);
      result.metadata["pid"] = static_cast<int64_t>(::getpid());  // which worker process scored it
    }
    return result;
  }

 private:
  void misbehave() const {
    std::this_thread::sleep_for(std::chrono::milliseconds(misbehave_after_ms_));
    if (misbehaviour_ == "abort") std::abort();
    if (misbehaviour_ == "exit0") std::exit(0);
    if (misbehaviour_ == "hang") for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
    std::raise(SIGSEGV);
  }

  std::string name_;
  double threshold_;
  int64_t max_sleep_ms_;
  bool report_context_;
  bool misbehaves_;
  int64_t misbehave_on_;
  int64_t misbehave_after_ms_;
  std::string misbehaviour_;
  std::string fail_on_env_;
  std::vector<int64_t> throw_on_;
  std::vector<int64_t> fail_on_;
};

class Capture {
 public:
  explicit Capture(const krino::Config& config) : path_(config.get_string("path")) {
    if (path_.empty()) throw krino::invalid_argument("capture needs a path");
    std::ofstream(path_, std::ios::trunc);
  }
  void on_event(const krino::Event& event) {
    pending_ += event.raw();
    pending_ += '\n';
    if (++events_ % 4 == 0) write_out();  // some events reach the file early, the rest on flush
  }
  void flush() { write_out(); }

 private:
  void write_out() {
    std::ofstream out(path_, std::ios::app);
    out << pending_;
    pending_.clear();
  }
  std::string path_;
  std::string pending_;
  uint64_t events_ = 0;
};

}  // namespace

KRINO_DATASET_RESOLVER(SequenceStream, "test.sequence", "sequence", "1.0.0", "Generated examples for tests", "seq", "",
                       R"({"type":"object","properties":{"bad_every":{"type":"integer","minimum":0},
                           "score_from_index":{"type":"boolean"},"id_every":{"type":"integer","minimum":0}},
                           "additionalProperties":false})");
KRINO_EVALUATOR(EchoScore, "test.echo_score", "echo_score", "1.0.0", "Scores what the output says",
                KRINO_CAP_THREAD_SAFE, R"({"type":"object","properties":{"name":{"type":"string"},
                    "threshold":{"type":"number"},"max_sleep_ms":{"type":"integer","minimum":0},
                    "throw_on":{"type":"array","items":{"type":"integer"}},
                    "fail_on":{"type":"array","items":{"type":"integer"}},
                    "report_context":{"type":"boolean"},"misbehave_on":{"type":"integer"},
                    "misbehave_after_ms":{"type":"integer","minimum":0},
                    "misbehaviour":{"enum":["segfault","abort","exit0","hang"]},
                    "fail_on_env":{"type":"string"}},"additionalProperties":false})");
KRINO_REPORTER(Capture, "test.capture", "capture", "1.0.0", "Writes events to a file",
               R"({"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false})");
KRINO_PLUGIN("test.testkit", "testkit", "1.0.0", "krino", "Apache-2.0", "Components for testing the host")
