#pragma once
// What both backends' text search indexes share (internal to store). An ended run's index is a
// table of its own, named after the run, so deleting the run drops it whole (no per-row delete,
// which FTS5 can only do by reading every document again). The index only narrows the candidates:
// every candidate is confirmed by the predicate a search without index uses
// (ui_text::contains_pattern), so the results are the same with and without it.
#include "ui_read_text.hpp"

#include "krino/core/common/error.hpp"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core::store::text_index {

// The run's index table: "item_text_" and the 32 hex digits of its id (ids are UUIDs the store
// made; anything else is refused, as it is put into SQL).
inline std::string table_name(std::string_view run_id) {
  const auto refuse = [run_id] { return KrinoError(ErrorKind::runtime, "text index: run id is not a UUID: " + std::string(run_id)); };
  std::string name = "item_text_";
  for (const char c : run_id) {
    if (c == '-') continue;
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) throw refuse();
    name += static_cast<char>(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
  }
  if (name.size() != 10 + 32) throw refuse();
  return name;
}

// The characters (UTF-8 sequences) of the text a word is searched as in a document: JSON-escaped,
// as ui_text::contains_pattern writes it.
inline std::vector<std::string> searched_characters(std::string_view word) {
  std::string escaped;
  krino::json::append_json_string(escaped, word);
  std::vector<std::string> characters;
  for (std::size_t i = 1; i + 1 < escaped.size(); ++i) {  // without the quotes
    const auto byte = static_cast<unsigned char>(escaped[i]);
    if ((byte & 0xC0) == 0x80 && !characters.empty()) characters.back() += escaped[i];
    else characters.emplace_back(1, escaped[i]);
  }
  return characters;
}

// The most trigrams a query asks the index for: a long word's first ones narrow enough, the
// confirming predicate does the rest.
inline constexpr std::size_t kMaxQueryTrigrams = 32;

// An FTS5 query (trigram tokenizer, detail=none: no phrases, so each trigram is a term of its own)
// that every document containing all `words` matches: the AND of their trigrams. Empty when no
// word has three characters (the index knows nothing shorter): the search is then not indexed.
inline std::string fts_trigram_query(const std::vector<std::string>& words) {
  std::set<std::string> trigrams;
  for (const std::string& word : words) {
    const std::vector<std::string> characters = searched_characters(word);
    for (std::size_t i = 0; i + 3 <= characters.size() && trigrams.size() < kMaxQueryTrigrams; ++i)
      trigrams.insert(characters[i] + characters[i + 1] + characters[i + 2]);
  }
  std::string query;
  for (const std::string& trigram : trigrams) {
    if (!query.empty()) query += " AND ";
    query += '"';
    for (const char c : trigram) {
      if (c == '"') query += '"';
      query += c;
    }
    query += '"';
  }
  return query;
}

// Whether a word is long enough for a trigram index to narrow its search (PostgreSQL's pg_trgm
// likewise extracts no trigram from a shorter one).
inline bool narrows(const std::vector<std::string>& words) {
  for (const std::string& word : words)
    if (searched_characters(word).size() >= 3) return true;
  return false;
}

}  // namespace krino::core::store::text_index
