#pragma once
// Agreement between two raters who each give an item one of two labels (a judge's pass/fail and a
// reviewer's CORRECT/INCORRECT; or two reviewers): the 2x2 confusion matrix, the share of items
// they agree on, and Cohen's kappa, which discounts the agreement two raters would reach by chance
// given how often each uses each label:
//
//   kappa = (p_o - p_e) / (1 - p_e),  p_o = (both_yes + both_no) / n,
//   p_e = (yes_a * yes_b + no_a * no_b) / n^2
//
// Kappa has no value when n = 0 (no item rated by both) or p_e = 1 (both raters used one and the
// same label for every item: nothing to tell apart from chance); the result then says why.
#include <cstdint>
#include <optional>
#include <string>

namespace krino::core {

struct BinaryConfusion {
  std::int64_t both_yes = 0;  // rater A yes, rater B yes
  std::int64_t a_yes_b_no = 0;
  std::int64_t a_no_b_yes = 0;
  std::int64_t both_no = 0;

  void add(bool a_yes, bool b_yes) {
    if (a_yes && b_yes) ++both_yes;
    else if (a_yes) ++a_yes_b_no;
    else if (b_yes) ++a_no_b_yes;
    else ++both_no;
  }
  std::int64_t total() const { return both_yes + a_yes_b_no + a_no_b_yes + both_no; }
};

struct AgreementFigures {
  std::int64_t items = 0;
  std::int64_t agreements = 0;
  std::optional<double> rate;   // agreements / items; none for no items
  std::optional<double> kappa;  // Cohen's kappa; none when undefined (see `note`)
  std::string note;             // why kappa is undefined; empty when it is defined
};

AgreementFigures agreement_figures(const BinaryConfusion& confusion);

}  // namespace krino::core
