// Agreement between two raters: the share they agree on and Cohen's kappa, on matrices whose
// figures are worked out by hand, and the cases where kappa has no value.
#include "krino/core/statistics/agreement.hpp"

#include <boost/test/unit_test.hpp>

using krino::core::agreement_figures;
using krino::core::BinaryConfusion;

BOOST_AUTO_TEST_SUITE(agreement)

BOOST_AUTO_TEST_CASE(kappa_of_a_textbook_matrix) {
  // 50 items: 20 both yes, 5 A-only, 10 B-only, 15 both no. p_o = 35/50 = 0.7; A says yes 25
  // times, B 30: p_e = (25*30 + 25*20) / 2500 = 0.5; kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4.
  const auto figures = agreement_figures(BinaryConfusion{20, 5, 10, 15});
  BOOST_TEST(figures.items == 50);
  BOOST_TEST(figures.agreements == 35);
  BOOST_TEST(*figures.rate == 0.7);
  BOOST_TEST(*figures.kappa == 0.4);
  BOOST_TEST(figures.note.empty());
}

BOOST_AUTO_TEST_CASE(kappa_is_minus_one_for_perfect_disagreement_and_one_for_perfect_agreement) {
  // p_o = 0, p_e = 0.5: (0 - 0.5) / 0.5.
  BOOST_TEST(*agreement_figures(BinaryConfusion{0, 5, 5, 0}).kappa == -1.0);
  BOOST_TEST(*agreement_figures(BinaryConfusion{3, 0, 0, 7}).kappa == 1.0);
}

BOOST_AUTO_TEST_CASE(kappa_is_zero_when_agreement_is_what_chance_gives) {
  // A says yes to all 4, B to 3: p_o = 0.75 = p_e = (4*3 + 0*1) / 16.
  const auto figures = agreement_figures(BinaryConfusion{3, 1, 0, 0});
  BOOST_TEST(*figures.rate == 0.75);
  BOOST_TEST(*figures.kappa == 0.0);
}

BOOST_AUTO_TEST_CASE(one_label_only_leaves_kappa_undefined_with_the_reason) {
  for (const BinaryConfusion& matrix : {BinaryConfusion{4, 0, 0, 0}, BinaryConfusion{0, 0, 0, 6}}) {
    const auto figures = agreement_figures(matrix);
    BOOST_TEST(*figures.rate == 1.0);
    BOOST_TEST(!figures.kappa.has_value());
    BOOST_TEST(figures.note.find("same one label") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(no_overlap_has_neither_rate_nor_kappa) {
  const auto figures = agreement_figures(BinaryConfusion{});
  BOOST_TEST(figures.items == 0);
  BOOST_TEST(!figures.rate.has_value());
  BOOST_TEST(!figures.kappa.has_value());
  BOOST_TEST(figures.note == "no item was rated by both");
}

BOOST_AUTO_TEST_SUITE_END()
