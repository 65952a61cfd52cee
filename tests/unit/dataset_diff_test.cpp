// core's one dataset version diff (store/dataset_diff.hpp), fed pages from memory: the same answer as
// a whole-version comparison by id whatever the order and page size, and little held while walking
// versions whose items stay in place or shift.
#include "krino/core/store/dataset_diff.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>

namespace store = krino::core::store;

namespace {

std::vector<store::DatasetItem> numbered(const std::vector<std::pair<std::string, std::string>>& ids_and_expected) {
  std::vector<store::DatasetItem> items;
  for (const auto& [id, expected] : ids_and_expected) {
    store::DatasetItem item;
    item.item_id = id;
    item.ordinal = static_cast<std::int64_t>(items.size());
    item.inputs = "{\"q\":\"" + id + "\"}";
    if (!expected.empty()) item.expected_outputs = expected;
    items.push_back(item);
  }
  return items;
}

// Pages of `size` from a version held in memory, counting the items handed out.
store::DatasetPageReader pages_of(const std::vector<store::DatasetItem>& version, std::size_t size, std::size_t* read = nullptr) {
  return [&version, size, read](std::int64_t after) {
    std::vector<store::DatasetItem> page;
    for (const auto& item : version)
      if (item.ordinal > after && page.size() < size) page.push_back(item);
    if (read != nullptr) *read += page.size();
    return page;
  };
}

struct Recorded : store::DatasetDiffSink {
  std::vector<std::string> added_ids, removed_ids, changed_ids;
  void added(const store::DatasetItem& item) override { added_ids.push_back(item.item_id); }
  void removed(const store::DatasetItem& item) override { removed_ids.push_back(item.item_id); }
  void changed(const store::DatasetItem&, const store::DatasetItem& after) override { changed_ids.push_back(after.item_id); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(dataset_diff)

BOOST_AUTO_TEST_CASE(added_removed_and_changed_by_id_in_version_order) {
  const auto from = numbered({{"a", "{\"x\":1}"}, {"b", "{\"x\":2}"}, {"c", ""}, {"d", "{\"x\":4}"}});
  auto to = numbered({{"b", "{\"x\":20}"}, {"c", "{\"x\":3}"}, {"e", ""}, {"d", "{\"x\":4}"}, {"f", ""}});
  to[3].inputs = "{\"q\":\"d again\"}";
  for (std::size_t size : {1u, 2u, 3u, 100u}) {
    Recorded seen;
    const auto counts = store::diff_dataset_versions(pages_of(from, size), pages_of(to, size), seen);
    BOOST_TEST(seen.added_ids == (std::vector<std::string>{"e", "f"}), size);
    BOOST_TEST(seen.removed_ids == (std::vector<std::string>{"a"}), size);
    std::sort(seen.changed_ids.begin(), seen.changed_ids.end());
    BOOST_TEST(seen.changed_ids == (std::vector<std::string>{"b", "c"}), size);  // an absent expected output that appears is a change
    BOOST_TEST(counts.added == 2);
    BOOST_TEST(counts.removed == 1);
    BOOST_TEST(counts.changed == 2);
    BOOST_TEST(counts.inputs_changed == 1);
  }
}

BOOST_AUTO_TEST_CASE(a_shuffled_version_gives_the_whole_version_comparison) {
  std::vector<std::pair<std::string, std::string>> before, after;
  for (int i = 0; i < 500; ++i) before.emplace_back("id" + std::to_string(i), "{\"v\":" + std::to_string(i % 7) + "}");
  for (int i = 100; i < 650; ++i) after.emplace_back("id" + std::to_string(i), "{\"v\":" + std::to_string(i % 5) + "}");
  std::shuffle(after.begin(), after.end(), std::mt19937(17));
  const auto from = numbered(before), to = numbered(after);
  std::map<std::string, std::string> from_expected;
  for (const auto& item : from) from_expected[item.item_id] = *item.expected_outputs;
  std::set<std::string> want_added, want_changed, want_removed;
  for (const auto& item : to) {
    const auto found = from_expected.find(item.item_id);
    if (found == from_expected.end()) want_added.insert(item.item_id);
    else if (found->second != *item.expected_outputs) want_changed.insert(item.item_id);
  }
  for (const auto& item : from)
    if (std::none_of(to.begin(), to.end(), [&](const auto& other) { return other.item_id == item.item_id; })) want_removed.insert(item.item_id);
  Recorded seen;
  const auto counts = store::diff_dataset_versions(pages_of(from, 37), pages_of(to, 37), seen);
  BOOST_TEST((std::set<std::string>(seen.added_ids.begin(), seen.added_ids.end()) == want_added));
  BOOST_TEST((std::set<std::string>(seen.removed_ids.begin(), seen.removed_ids.end()) == want_removed));
  BOOST_TEST((std::set<std::string>(seen.changed_ids.begin(), seen.changed_ids.end()) == want_changed));
  BOOST_TEST(counts.added == 150);
  BOOST_TEST(counts.removed == 100);
  BOOST_TEST(counts.added + counts.removed + counts.changed == static_cast<std::int64_t>(seen.added_ids.size() + seen.removed_ids.size() + seen.changed_ids.size()));
}

BOOST_AUTO_TEST_CASE(each_version_is_read_once_page_by_page) {
  std::vector<std::pair<std::string, std::string>> items;
  for (int i = 0; i < 1000; ++i) items.emplace_back("id" + std::to_string(i), "{}");
  const auto from = numbered(items);
  items.erase(items.begin());  // every later item moves up by one ordinal
  const auto to = numbered(items);
  std::size_t read_from = 0, read_to = 0;
  Recorded seen;
  const auto counts = store::diff_dataset_versions(pages_of(from, 50, &read_from), pages_of(to, 50, &read_to), seen);
  BOOST_TEST(read_from == 1000u);
  BOOST_TEST(read_to == 999u);
  BOOST_TEST(counts.removed == 1);
  BOOST_TEST(counts.added == 0);
  BOOST_TEST(counts.changed == 0);
  // Every item moved by one place: at most a page and a bit is held, not a version.
  BOOST_TEST(counts.most_held <= 52);
}

BOOST_AUTO_TEST_CASE(a_reversed_version_holds_what_has_not_been_met) {
  std::vector<std::pair<std::string, std::string>> items;
  for (int i = 0; i < 400; ++i) items.emplace_back("id" + std::to_string(i), "{}");
  const auto from = numbered(items);
  std::reverse(items.begin(), items.end());
  const auto to = numbered(items);
  Recorded seen;
  const auto counts = store::diff_dataset_versions(pages_of(from, 50), pages_of(to, 50), seen);
  BOOST_TEST(counts.added + counts.removed + counts.changed == 0);
  BOOST_TEST(counts.most_held == 400);  // halfway, each side holds the half the other has not reached
}

BOOST_AUTO_TEST_SUITE_END()
