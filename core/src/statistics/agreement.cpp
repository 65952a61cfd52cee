#include "krino/core/statistics/agreement.hpp"

namespace krino::core {

AgreementFigures agreement_figures(const BinaryConfusion& confusion) {
  AgreementFigures figures;
  figures.items = confusion.total();
  figures.agreements = confusion.both_yes + confusion.both_no;
  if (figures.items == 0) {
    figures.note = "no item was rated by both";
    return figures;
  }
  const double n = static_cast<double>(figures.items);
  figures.rate = static_cast<double>(figures.agreements) / n;
  const double a_yes = static_cast<double>(confusion.both_yes + confusion.a_yes_b_no);
  const double b_yes = static_cast<double>(confusion.both_yes + confusion.a_no_b_yes);
  // In whole numbers until the one division, so kappa of a given matrix is the same bits everywhere.
  const double chance_numerator = a_yes * b_yes + (n - a_yes) * (n - b_yes);  // p_e * n^2
  const double n_squared = n * n;
  if (chance_numerator == n_squared) {
    figures.note = "both raters gave every item the same one label: chance explains all agreement";
    return figures;
  }
  // (p_o - p_e) / (1 - p_e), multiplied through by n^2.
  figures.kappa = (static_cast<double>(figures.agreements) * n - chance_numerator) / (n_squared - chance_numerator);
  return figures;
}

}  // namespace krino::core
