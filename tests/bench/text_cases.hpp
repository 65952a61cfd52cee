#pragma once
// The text workload of the benchmarks: structured answers scored by the text evaluators, as JSON
// Lines.
//
// Each case is about 2 KB: a question, a structured expected answer, a recorded actual answer that
// differs in one case out of seven, and metadata. The actual answer writes its numbers differently
// (2102650.0, 105.40) and, when right, orders its members differently, so structural scoring has
// work to do on every case. Deterministic: the same `items` give the same bytes.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace krino::bench {

// `n` bytes of words drawn from a fixed list by a linear congruential generator seeded with `seed`.
inline std::string text_padding(size_t n, uint64_t seed) {
  static const char* words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"};
  std::string out;
  while (out.size() < n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    out += words[(seed >> 33) % 9];
    out += ' ';
  }
  out.resize(n);
  return out;
}

inline void generate_text_cases(const std::filesystem::path& file, uint64_t items) {
  std::ofstream out(file, std::ios::binary);
  std::string line;
  for (uint64_t i = 0; i < items; ++i) {
    const bool wrong = i % 7 == 3;
    std::string answer = "{\"city\":\"Paris\",\"population\":2102650,\"area_km2\":105.4,\"tags\":[\"capital\",\"europe\",\"" +
                         text_padding(40, i) + "\"],\"notes\":\"" + text_padding(380, i + 1) + "\"}";
    std::string actual = wrong ? "{\"city\":\"Lyon\",\"population\":2102650.0,\"area_km2\":105.40,\"tags\":[\"capital\",\"europe\",\"" +
                                     text_padding(40, i) + "\"],\"notes\":\"" + text_padding(380, i + 1) + "\"}"
                               : "{\"population\":2102650.0,\"city\":\"Paris\",\"area_km2\":105.40,\"tags\":[\"capital\",\"europe\",\"" +
                                     text_padding(40, i) + "\"],\"notes\":\"" + text_padding(380, i + 1) + "\"}";
    line = "{\"id\":\"case-" + std::to_string(i) + "\",\"inputs\":{\"input\":\"Describe the capital of France. " +
           text_padding(300, i + 2) + "\"},\"expectedOutputs\":{\"output\":" + answer + ",\"label\":\"Paris\"},\"actualOutputs\":{\"output\":" +
           actual + ",\"label\":\"" + (wrong ? "Lyon" : "Paris") + "\"},\"metadata\":{\"source\":\"bench\",\"batch\":" +
           std::to_string(i / 1000) + ",\"trace\":\"" + text_padding(180, i + 3) + "\"}}\n";
    out << line;
  }
}

// The evaluators the text benchmark scores each case with, as an experiment file's list.
inline constexpr const char* kTextEvaluators =
    "evaluators:\n"
    "  - exact_match: {output_key: label}\n"
    "  - structural_match: {match_mode: strict}\n"
    "  - regex: {pattern: 'Paris|Lyon', output_key: label}\n"
    "  - contains: {value: Paris, output_key: label}\n";

}  // namespace krino::bench
