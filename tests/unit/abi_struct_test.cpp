#include "krino/core/plugin/abi_struct.hpp"

#include <krino/plugin.h>

#include <boost/test/unit_test.hpp>

using namespace krino::core;

namespace {
void dummy_destroy(void*) {}
krino_status dummy_batch(void*, const krino_call_context*, const char*, size_t, size_t, krino_sink*, krino_sink*) {
  return KRINO_OK;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(abi_struct)

BOOST_AUTO_TEST_CASE(older_smaller_struct_reads_missing_tail_as_zero) {
  // An evaluator vtable from a header that did not have evaluate_batch yet.
  krino_evaluator_vtable full{};
  full.destroy = &dummy_destroy;
  full.evaluate_batch = &dummy_batch;
  full.struct_size = offsetof(krino_evaluator_vtable, evaluate_batch);
  krino_evaluator_vtable read;
  BOOST_TEST(read_abi_struct(&full, read));
  BOOST_TEST(read.destroy == &dummy_destroy);
  BOOST_TEST(read.evaluate_batch == nullptr);
}

BOOST_AUTO_TEST_CASE(newer_larger_struct_is_read_by_prefix) {
  struct Grown {
    krino_reporter_vtable known;
    void* added_later;
  } grown{};
  grown.known.struct_size = sizeof(Grown);
  grown.known.destroy = &dummy_destroy;
  grown.added_later = &grown;
  krino_reporter_vtable read;
  BOOST_TEST(read_abi_struct(&grown, read));
  BOOST_TEST(read.destroy == &dummy_destroy);
}

BOOST_AUTO_TEST_CASE(null_or_impossible_size_is_refused) {
  krino_reporter_vtable read;
  BOOST_TEST(!read_abi_struct(nullptr, read));
  uint32_t zero[4] = {0, 0, 0, 0};
  BOOST_TEST(!read_abi_struct(zero, read));
}

BOOST_AUTO_TEST_SUITE_END()
