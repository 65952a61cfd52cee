// The one Boost.Test main shared by every test executable.
#define BOOST_TEST_MODULE krino
#include <boost/test/unit_test.hpp>
