// Comparisons of whole records that name what differs.
#pragma once

#include <animkit/core/model.hpp>

#include "formats/common/fields.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace animkit::test {

// Each member of the list (fields::List(Field{"name", &S::name}, ...), of any type with ==)
// is the same in actual as in expected; a failure names `what` and the member.
template <class S, class M>
void ExpectSameMember(const S& actual, const S& expected, const std::string& what, const fields::Field<S, M>& field) {
  EXPECT_EQ(actual.*field.member, expected.*field.member) << what << ": " << field.name;
}
template <class S, class... M>
void ExpectSameMembers(const S& actual, const S& expected, const std::string& what,
                       const std::tuple<fields::Field<S, M>...>& list) {
  std::apply([&](const auto&... field) { (ExpectSameMember(actual, expected, what, field), ...); }, list);
}

// The two clips have the same tracks, in order, with the same key values of translation,
// rotation and scale (times are not compared).
void ExpectSameKeyValues(const Clip& actual, const Clip& expected);

}  // namespace animkit::test
