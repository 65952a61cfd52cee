// A GoogleTest binary over a dataset that cannot be read: it must register one test,
// Missing/UnreadableTest.uses/dataset_error, that fails in SetUp with the reason (naming the file),
// before the body runs. Run by CTest, which checks the output (tests/testing/CMakeLists.txt).
#include <krino/testing/gtest.hpp>

#include <gtest/gtest.h>

namespace {

class UnreadableTest : public krino::testing::gtest::ExampleTest {};

TEST_P(UnreadableTest, uses) { ADD_FAILURE() << "the body ran"; }

INSTANTIATE_TEST_SUITE_P(Missing, UnreadableTest, krino::testing::gtest::dataset("/nonexistent/cases.jsonl"),
                         krino::testing::gtest::example_name);

}  // namespace
