// The rows of the run in progress, kept on disk until the run's status is known: each row is
// written without its last cell, which is added when the rows are copied out.
#ifndef KRINO_CSV_ROW_SPOOL_HPP
#define KRINO_CSV_ROW_SPOOL_HPP

#include <krino/report/output.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace krino::csv {

class RowSpool {
 public:
  explicit RowSpool(const std::filesystem::path& directory) : spool_(directory) {}

  // Adds one row (its cells, without the record separator).
  void add(std::string_view row);
  uint64_t rows() const { return rows_; }

  // Hands every row to `sink`, in order and in pieces, each row followed by `suffix`; then
  // empties the spool.
  void drain(std::string_view suffix, const std::function<void(std::string_view)>& sink);

 private:
  report::Spool spool_;
  uint64_t rows_ = 0;
};

}  // namespace krino::csv

#endif  // KRINO_CSV_ROW_SPOOL_HPP
