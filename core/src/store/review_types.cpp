#include "krino/core/store/review_types.hpp"

namespace krino::core::store {

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::correct:
      return "CORRECT";
    case Verdict::incorrect:
      return "INCORRECT";
    case Verdict::unsure:
      return "UNSURE";
  }
  return "UNSURE";
}

std::optional<Verdict> parse_verdict(std::string_view name) {
  for (Verdict verdict : {Verdict::correct, Verdict::incorrect, Verdict::unsure})
    if (verdict_name(verdict) == name) return verdict;
  return std::nullopt;
}

}  // namespace krino::core::store
