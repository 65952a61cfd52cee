#pragma once
// What libkrino-testing exports. Everything else in the library (all of core, Boost.JSON) is hidden,
// so a test binary sees only the krino::testing API and never clashes with its own copies.
#define KRINO_TESTING_API __attribute__((visibility("default")))
