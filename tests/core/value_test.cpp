#include <animkit/core/error.hpp>
#include <animkit/core/value.hpp>

#include "core/value_json.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace animkit {
namespace {

TEST(Value, KindsFollowTheSourceType) {
  EXPECT_EQ(Value().kind(), Value::Kind::Null);
  EXPECT_EQ(Value(nullptr).kind(), Value::Kind::Null);
  EXPECT_EQ(Value(true).kind(), Value::Kind::Bool);
  EXPECT_EQ(Value(int16_t{-3}).kind(), Value::Kind::Integer);
  EXPECT_EQ(Value(uint8_t{3}).kind(), Value::Kind::Unsigned);
  EXPECT_EQ(Value(size_t{3}).kind(), Value::Kind::Unsigned);
  EXPECT_EQ(Value(0.5f).kind(), Value::Kind::Double);
  EXPECT_EQ(Value("a").kind(), Value::Kind::String);
  EXPECT_EQ(Value(std::string_view("a")).kind(), Value::Kind::String);
  EXPECT_EQ(Value(std::vector<float>{1, 2}).kind(), Value::Kind::Array);
  EXPECT_EQ(Value(std::map<std::string, int>{{"a", 1}}).kind(), Value::Kind::Object);
  EXPECT_TRUE(Value(uint32_t{7}).is_number_integer());
  EXPECT_TRUE(Value(uint32_t{7}).is_number_unsigned());
  EXPECT_FALSE(Value(int32_t{7}).is_number_unsigned());
  EXPECT_TRUE(Value(1.0).is_number_float());
  EXPECT_TRUE(Value("x").is_primitive());
  EXPECT_TRUE(Value::array().is_structured());
}

TEST(Value, BracedListsOfPairsAreObjectsOtherListsArrays) {
  const Value object = {{"name", "walk"}, {"frames", 12}};
  ASSERT_TRUE(object.is_object());
  EXPECT_EQ(object.size(), 2u);
  EXPECT_EQ(object["name"], "walk");
  EXPECT_EQ(object["frames"], 12);

  const Value array = {1, "two", 3.5};
  ASSERT_TRUE(array.is_array());
  EXPECT_EQ(array.size(), 3u);
  EXPECT_EQ(array[1], "two");

  // A list of [string, value] pairs forced to stay an array.
  const Value pairs = Value::array({{"a", 1}, {"b", 2}});
  ASSERT_TRUE(pairs.is_array());
  EXPECT_TRUE(pairs[0].is_array());

  const Value nested = {{"ids", {1, 2, 3}}, {"inner", {{"k", false}}}};
  EXPECT_TRUE(nested["ids"].is_array());
  EXPECT_TRUE(nested["inner"].is_object());
  EXPECT_EQ(nested["inner"]["k"], false);

  EXPECT_THROW(Value::object({1, 2}), Error);
  EXPECT_TRUE(Value::object().is_object());
  EXPECT_TRUE(Value::object().empty());
}

TEST(Value, ObjectKeysAreSortedWhateverTheInsertionOrder) {
  Value v;
  v["zeta"] = 1;
  v["alpha"] = 2;
  v["mid"] = 3;
  std::vector<std::string> keys;
  for (auto item : v.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"alpha", "mid", "zeta"}));
  EXPECT_EQ(DumpJson(v), R"({"alpha":2,"mid":3,"zeta":1})");
}

TEST(Value, MemberAndElementAccess) {
  Value v;
  EXPECT_TRUE(v.is_null());
  EXPECT_TRUE(v.empty());
  v["a"]["b"] = "deep";  // null becomes an object at each level
  EXPECT_TRUE(v.contains("a"));
  EXPECT_FALSE(v.contains("b"));
  EXPECT_EQ(v["a"]["b"], "deep");

  const Value& c = v;
  EXPECT_TRUE(c["missing"].is_null());  // const access never inserts
  EXPECT_FALSE(c.contains("missing"));
  EXPECT_TRUE(c["a"][5].is_null());
  EXPECT_THROW(c.at("missing"), Error);

  Value list;
  list.push_back(1);
  list.push_back("x");
  EXPECT_EQ(list.size(), 2u);
  EXPECT_EQ(list.front(), 1);
  EXPECT_EQ(list.back(), "x");
  list[3] = true;  // grows with nulls
  EXPECT_EQ(DumpJson(list), R"([1,"x",null,true])");
  EXPECT_THROW(list.at(size_t{4}), Error);

  Value scalar = 3;
  EXPECT_THROW(scalar["k"], Error);
  EXPECT_THROW(scalar.push_back(1), Error);
  EXPECT_EQ(scalar.size(), 1u);
}

TEST(Value, FindEraseUpdate) {
  Value v = {{"a", 1}, {"b", 2}};
  auto it = v.find("b");
  ASSERT_NE(it, v.end());
  EXPECT_EQ(*it, 2);
  EXPECT_EQ(it.key(), "b");
  EXPECT_EQ(v.find("zz"), v.end());
  EXPECT_EQ(Value(5).find("a"), Value(5).end());

  EXPECT_EQ(v.erase("a"), 1u);
  EXPECT_EQ(v.erase("a"), 0u);
  v.update({{"b", 20}, {"c", 30}});
  EXPECT_EQ(DumpJson(v), R"({"b":20,"c":30})");
  EXPECT_THROW(v.update(Value(1)), Error);
}

TEST(Value, GetConvertsNumbersAndRejectsOtherKinds) {
  EXPECT_EQ(Value(2.75).get<int>(), 2);
  EXPECT_EQ(Value(uint64_t{7}).get<double>(), 7.0);
  EXPECT_EQ(Value(int64_t{-1}).get<int16_t>(), -1);
  EXPECT_EQ(Value("s").get<std::string>(), "s");
  EXPECT_EQ(Value(true).get<bool>(), true);
  EXPECT_EQ((Value{1.5, 2.5}.get<std::vector<float>>()), (std::vector<float>{1.5f, 2.5f}));
  EXPECT_THROW(Value("s").get<int>(), Error);
  EXPECT_THROW(Value(1).get<std::string>(), Error);
  EXPECT_THROW(Value(1).get<bool>(), Error);
  EXPECT_THROW(Value(1).as_array(), Error);

  const Value v = {{"n", 4}, {"s", "text"}};
  EXPECT_EQ(v.value("n", 0), 4);
  EXPECT_EQ(v.value("missing", 9), 9);
  EXPECT_EQ(v.value("s", ""), "text");
  EXPECT_EQ(v.value("missing", "fallback"), "fallback");
}

TEST(Value, NumbersCompareByValueAcrossKinds) {
  EXPECT_EQ(Value(1), Value(1u));
  EXPECT_EQ(Value(1u), Value(1));
  EXPECT_EQ(Value(2), Value(2.0));
  EXPECT_NE(Value(-1), Value(std::numeric_limits<uint64_t>::max()));
  EXPECT_NE(Value(1), Value("1"));
  EXPECT_NE(Value(0), Value(false));
  EXPECT_NE(Value(), Value::object());
  EXPECT_EQ((Value{{"a", {1, 2}}}), (Value{{"a", {1u, 2.0}}}));
  EXPECT_NE((Value{1, 2}), (Value{2, 1}));
}

TEST(Value, IterationVisitsElementsAndMemberValues) {
  const Value array = {1, 2, 3};
  int sum = 0;
  for (const Value& e : array) sum += e.get<int>();
  EXPECT_EQ(sum, 6);
  std::vector<std::string> indexes;
  for (auto item : array.items()) indexes.push_back(item.key());
  EXPECT_EQ(indexes, (std::vector<std::string>{"0", "1", "2"}));

  Value object = {{"a", 1}, {"b", 2}};
  for (Value& e : object) e = e.get<int>() * 10;
  EXPECT_EQ(DumpJson(object), R"({"a":10,"b":20})");

  int visited = 0;
  for ([[maybe_unused]] const Value& e : Value(7)) ++visited;
  for ([[maybe_unused]] const Value& e : Value()) ++visited;
  EXPECT_EQ(visited, 0);
}

// The text is what the CLI contract promises: written here from the JSON grammar and
// nlohmann's number format (integers as digits, doubles shortest round-trip).
TEST(Value, DumpJsonText) {
  const Value v = {{"i", -3}, {"u", uint64_t{18446744073709551615u}}, {"d", 0.5}, {"f", 0.1f},
                   {"s", "a\"b"}, {"n", nullptr}, {"b", true}, {"a", Value::array()}, {"o", Value::object()}};
  EXPECT_EQ(DumpJson(v),
            R"({"a":[],"b":true,"d":0.5,"f":0.10000000149011612,"i":-3,"n":null,"o":{},"s":"a\"b",)"
            R"("u":18446744073709551615})");
  EXPECT_EQ(DumpJson(Value{{"k", {1, 2}}}, 2), "{\n  \"k\": [\n    1,\n    2\n  ]\n}");
  EXPECT_EQ(DumpJson(Value(2.0)), "2.0");
  // Bytes that are not UTF-8 become U+FFFD.
  EXPECT_EQ(DumpJson(Value("a\x80")), "\"a\xEF\xBF\xBD\"");
  std::ostringstream out;
  out << Value{{"x", 1}};
  EXPECT_EQ(out.str(), R"({"x":1})");
}

TEST(Value, ParseJsonKeepsNumberKinds) {
  const Value v = ParseJson(R"({"i": -1, "u": 1, "d": 1.0, "s": "x", "a": [null, false], "o": {}})");
  EXPECT_EQ(v["i"].kind(), Value::Kind::Integer);
  EXPECT_EQ(v["u"].kind(), Value::Kind::Unsigned);
  EXPECT_EQ(v["d"].kind(), Value::Kind::Double);
  EXPECT_EQ(v["s"], "x");
  EXPECT_TRUE(v["a"][0].is_null());
  EXPECT_EQ(v["a"][1], false);
  EXPECT_TRUE(v["o"].is_object());
  EXPECT_THROW(ParseJson("{\"a\": }"), Error);
  EXPECT_THROW(ParseJson(""), Error);
}

// Through nlohmann::json and back nothing changes: kinds, order, text.
TEST(Value, NlohmannBridgeRoundTrips) {
  const Value v = {{"list", {1, -2, 3.25, "s", nullptr, true}},
                   {"map", {{"z", uint8_t{1}}, {"a", int8_t{-1}}}},
                   {"big", std::numeric_limits<int64_t>::min()}};
  const nlohmann::json j = ToNlohmann(v);
  EXPECT_EQ(j["list"][1].type(), nlohmann::json::value_t::number_integer);
  EXPECT_EQ(j["map"]["z"].type(), nlohmann::json::value_t::number_unsigned);
  EXPECT_EQ(j["list"][2].type(), nlohmann::json::value_t::number_float);
  EXPECT_EQ(j.dump(), DumpJson(v));
  const Value back = FromNlohmann(j);
  EXPECT_EQ(back, v);
  EXPECT_EQ(DumpJson(back), DumpJson(v));
  EXPECT_EQ(back["map"]["z"].kind(), Value::Kind::Unsigned);
  EXPECT_TRUE(FromNlohmann(nlohmann::json::binary({1, 2})).is_null());
}

}  // namespace
}  // namespace animkit
