// Builds a MatchingStrategy from the `matching` option of precision and recall.
#ifndef KRINO_TEXT_MATCHING_STRATEGY_FACTORY_H
#define KRINO_TEXT_MATCHING_STRATEGY_FACTORY_H

#include "matching_strategy.h"

#include <boost/json/value.hpp>

#include <memory>
#include <string_view>

namespace krino::text {

// `spec` is {"strategy": name, ...} or null (equality). Strategies:
//   equality          same JSON value; numbers by value (1 == 1.0), objects regardless of key order
//   case_insensitive  strings equal under Unicode simple case folding; other values by equality
//   field             objects equal in `field` (absent or null never matches); a non-object item
//                     stands for itself, so "doc-1" matches {"id": "doc-1"}
//   fields            objects equal in every one of `fields`; non-objects by equality
//   containment       the retrieved string contains the expected string (`normalize`: collapse
//                     white space, trim and ignore case first); an empty expected text matches only
//                     an empty retrieved text; other values by equality
//   any_of / all_of   at least one / every strategy of `strategies` matches
// An option that does not belong to the named strategy is a configuration error. Errors throw
// krino::Error(KRINO_INVALID_ARGUMENT) naming the option by its path, starting at `where`.
std::unique_ptr<const MatchingStrategy> make_matching_strategy(const boost::json::value& spec,
                                                               std::string_view where = "matching");

}  // namespace krino::text

#endif  // KRINO_TEXT_MATCHING_STRATEGY_FACTORY_H
