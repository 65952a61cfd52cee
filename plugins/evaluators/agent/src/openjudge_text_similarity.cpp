#include "openjudge_text_similarity.h"

#include <set>
#include <string>

namespace krino::agent::openjudge {

namespace {

bool separates_words(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
}

std::set<std::string> lower_case_words(std::string_view text) {
  std::set<std::string> words;
  std::string word;
  for (char c : text) {
    if (separates_words(c)) {
      if (!word.empty()) words.insert(std::move(word));
      word.clear();
    } else {
      word += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
  }
  if (!word.empty()) words.insert(std::move(word));
  return words;
}

}  // namespace

double word_set_similarity(std::string_view first, std::string_view second) {
  const std::set<std::string> a = lower_case_words(first);
  const std::set<std::string> b = lower_case_words(second);
  if (a.empty() || b.empty()) return 0.0;
  std::size_t shared = 0;
  for (const auto& word : a) shared += b.count(word);
  const std::size_t combined = a.size() + b.size() - shared;
  return static_cast<double>(shared) / static_cast<double>(combined);
}

}  // namespace krino::agent::openjudge
