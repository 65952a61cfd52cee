// word_count: scores 1 when the number of words in the actual output lies within
// [min_words, max_words], else 0. A complete krino evaluator: one class, one registration line
// for the evaluator and one for the plugin. It uses nothing but the SDK's <krino/plugin.hpp>.
//
// Options (validated by the host against kConfigSchema before the constructor runs):
//   min_words   fewest words allowed (default 0)
//   max_words   most words allowed (default: no upper bound)
//   output_key  which actual output to count (default "output")
//   threshold   score needed for success (default 1)
//   name        the name results carry (default "word_count"; the host sets it too)
#include <krino/plugin.hpp>

#include <cctype>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace {

// Words are maximal runs of non-whitespace characters (ASCII whitespace; UTF-8 multi-byte
// characters are never whitespace, so non-Latin words count too).
int64_t count_words(std::string_view text) {
  int64_t words = 0;
  bool in_word = false;
  for (char c : text) {
    const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

class WordCount {
 public:
  explicit WordCount(const krino::Config& config)
      : min_words_(config.get_int("min_words", 0)),
        max_words_(config.get_int("max_words", std::numeric_limits<int64_t>::max())),
        output_key_(config.get_string("output_key", "output")),
        threshold_(config.get_double("threshold", 1.0)),
        name_(config.get_string("name", "word_count")) {
    if (min_words_ > max_words_)
      throw krino::invalid_argument("min_words (" + std::to_string(min_words_) + ") is greater than max_words (" +
                                    std::to_string(max_words_) + ")");
  }

  // Called on worker threads, possibly concurrently (KRINO_CAP_THREAD_SAFE): it only reads members.
  krino::EvalResult evaluate(const krino::TestCase& test_case, krino::CallContext&) const {
    const boost::json::value* output = test_case.find(krino::Section::actual_outputs, output_key_);
    // A missing or non-text output means the evaluator cannot do its job: an item error, not a score.
    if (output == nullptr) throw krino::invalid_argument("actualOutputs has no '" + output_key_ + "'");
    if (!output->is_string()) throw krino::invalid_argument("actualOutputs." + output_key_ + " is not a string");

    const int64_t words = count_words(output->get_string());
    const bool within = words >= min_words_ && words <= max_words_;
    krino::EvalResult result = krino::EvalResult::scored(name_, within ? 1.0 : 0.0, threshold_, describe(words));
    result.metadata["words"] = words;
    return result;
  }

 private:
  // "3 words (allowed: 1 to 3)", "0 words (allowed: at least 2)".
  std::string describe(int64_t words) const {
    std::string allowed = max_words_ == std::numeric_limits<int64_t>::max()
                              ? "at least " + std::to_string(min_words_)
                              : std::to_string(min_words_) + " to " + std::to_string(max_words_);
    return std::to_string(words) + (words == 1 ? " word" : " words") + " (allowed: " + allowed + ")";
  }

  int64_t min_words_;
  int64_t max_words_;
  std::string output_key_;
  double threshold_;
  std::string name_;
};

constexpr const char* kConfigSchema = R"({
  "type": "object",
  "properties": {
    "min_words": {"type": "integer", "minimum": 0, "default": 0, "description": "Fewest words allowed."},
    "max_words": {"type": "integer", "minimum": 0, "description": "Most words allowed; no upper bound when absent."},
    "output_key": {"type": "string", "default": "output", "description": "The actual output to count."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1, "description": "Score needed for success."},
    "name": {"type": "string", "description": "The name results carry."}
  },
  "additionalProperties": false
})";

}  // namespace

KRINO_EVALUATOR(WordCount, "dev.krino.examples.word_count", "word_count", "1.0.0",
                "Scores 1 when the output's word count is within [min_words, max_words]",
                KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC, kConfigSchema);

KRINO_PLUGIN("dev.krino.examples.word_count", "word_count", "1.0.0", "krino examples", "Apache-2.0",
             "Example out-of-tree evaluator: word count within a range")
