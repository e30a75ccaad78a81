#include "core/value_json.hpp"

#include <animkit/core/error.hpp>

#include <ostream>

namespace animkit {

namespace {

bool IsMemberPair(const Value& v) { return v.is_array() && v.size() == 2 && v[0].is_string(); }

Value::Object ObjectOf(std::initializer_list<Value> init) {
  Value::Object o;
  for (const Value& pair : init) o.insert_or_assign(pair[0].as_string(), pair[1]);
  return o;
}

const Value& NullValue() {
  static const Value null;
  return null;
}

std::string_view KindName(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::Null: return "null";
    case Value::Kind::Bool: return "a boolean";
    case Value::Kind::Integer:
    case Value::Kind::Unsigned:
    case Value::Kind::Double: return "a number";
    case Value::Kind::String: return "a string";
    case Value::Kind::Array: return "an array";
    case Value::Kind::Object: return "an object";
  }
  return "a value";
}

}  // namespace

Value::Value(std::initializer_list<Value> init) {
  bool all_pairs = init.size() > 0;
  for (const Value& v : init) all_pairs = all_pairs && IsMemberPair(v);
  if (all_pairs) data_ = ObjectOf(init);
  else data_ = Array(init);
}

Value Value::array(std::initializer_list<Value> init) { return Value(Array(init)); }

Value Value::object(std::initializer_list<Value> init) {
  for (const Value& v : init)
    if (!IsMemberPair(v)) throw Error::General("an object is made of [name, value] pairs, got " + DumpJson(v));
  return Value(ObjectOf(init));
}

void Value::KindError(std::string_view expected) const {
  throw Error::General("expected " + std::string(expected) + ", found " + std::string(KindName(kind())));
}

size_t Value::size() const {
  switch (kind()) {
    case Kind::Null: return 0;
    case Kind::Array: return std::get<Array>(data_).size();
    case Kind::Object: return std::get<Object>(data_).size();
    default: return 1;
  }
}

const Value::Array& Value::as_array() const {
  if (!is_array()) KindError("an array");
  return std::get<Array>(data_);
}

const Value::Object& Value::as_object() const {
  if (!is_object()) KindError("an object");
  return std::get<Object>(data_);
}

const std::string& Value::as_string() const {
  if (!is_string()) KindError("a string");
  return std::get<std::string>(data_);
}

Value::Array& Value::MutableArray() {
  if (is_null()) data_ = Array{};
  if (!is_array()) KindError("an array");
  return std::get<Array>(data_);
}

Value& Value::operator[](std::string_view key) {
  if (is_null()) data_ = Object{};
  if (!is_object()) KindError("an object");
  Object& o = std::get<Object>(data_);
  auto it = o.find(key);
  if (it == o.end()) it = o.emplace(std::string(key), Value()).first;
  return it->second;
}

const Value& Value::operator[](std::string_view key) const {
  if (!is_object()) return NullValue();
  const Object& o = std::get<Object>(data_);
  const auto it = o.find(key);
  return it == o.end() ? NullValue() : it->second;
}

Value& Value::Element(size_t index) {
  Array& a = MutableArray();
  if (index >= a.size()) a.resize(index + 1);
  return a[index];
}

const Value& Value::Element(size_t index) const {
  if (!is_array() || index >= std::get<Array>(data_).size()) return NullValue();
  return std::get<Array>(data_)[index];
}

const Value& Value::at(std::string_view key) const {
  const Object& o = as_object();
  const auto it = o.find(key);
  if (it == o.end()) throw Error::General("no member '" + std::string(key) + "'");
  return it->second;
}

const Value& Value::at(size_t index) const {
  const Array& a = as_array();
  if (index >= a.size())
    throw Error::General("index " + std::to_string(index) + " is past the array's " + std::to_string(a.size()) +
                         " elements");
  return a[index];
}

bool Value::contains(std::string_view key) const {
  return is_object() && std::get<Object>(data_).find(key) != std::get<Object>(data_).end();
}

Value::iterator Value::find(std::string_view key) {
  if (!is_object()) return end();
  return iterator(std::get<Object>(data_).find(key));
}

Value::const_iterator Value::find(std::string_view key) const {
  if (!is_object()) return end();
  return const_iterator(std::get<Object>(data_).find(key));
}

size_t Value::erase(std::string_view key) {
  if (!is_object()) return 0;
  Object& o = std::get<Object>(data_);
  const auto it = o.find(key);
  if (it == o.end()) return 0;
  o.erase(it);
  return 1;
}

void Value::update(const Value& other) {
  if (is_null()) data_ = Object{};
  if (!is_object()) KindError("an object");
  for (const auto& [k, v] : other.as_object()) std::get<Object>(data_).insert_or_assign(k, v);
}

void Value::push_back(Value v) { MutableArray().push_back(std::move(v)); }

Value::iterator Value::begin() {
  if (is_array()) return iterator(std::get<Array>(data_).begin());
  if (is_object()) return iterator(std::get<Object>(data_).begin());
  return iterator();
}

Value::iterator Value::end() {
  if (is_array()) return iterator(std::get<Array>(data_).end());
  if (is_object()) return iterator(std::get<Object>(data_).end());
  return iterator();
}

Value::const_iterator Value::begin() const {
  if (is_array()) return const_iterator(std::get<Array>(data_).cbegin());
  if (is_object()) return const_iterator(std::get<Object>(data_).cbegin());
  return const_iterator();
}

Value::const_iterator Value::end() const {
  if (is_array()) return const_iterator(std::get<Array>(data_).cend());
  if (is_object()) return const_iterator(std::get<Object>(data_).cend());
  return const_iterator();
}

double Value::NumberAsDouble() const {
  switch (kind()) {
    case Kind::Integer: return static_cast<double>(std::get<int64_t>(data_));
    case Kind::Unsigned: return static_cast<double>(std::get<uint64_t>(data_));
    default: return std::get<double>(data_);
  }
}

bool operator==(const Value& a, const Value& b) {
  using Kind = Value::Kind;
  if (a.is_number() && b.is_number()) {
    if (a.kind() == Kind::Integer && b.kind() == Kind::Unsigned)
      return std::get<int64_t>(a.data_) >= 0 && static_cast<uint64_t>(std::get<int64_t>(a.data_)) == std::get<uint64_t>(b.data_);
    if (a.kind() == Kind::Unsigned && b.kind() == Kind::Integer) return b == a;
    if (a.kind() != Kind::Double && a.kind() == b.kind()) return a.data_ == b.data_;
    return a.NumberAsDouble() == b.NumberAsDouble();
  }
  return a.data_ == b.data_;
}

nlohmann::json ToNlohmann(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::Null: return nullptr;
    case Value::Kind::Bool: return v.get<bool>();
    case Value::Kind::Integer: return v.get<int64_t>();
    case Value::Kind::Unsigned: return v.get<uint64_t>();
    case Value::Kind::Double: return v.get<double>();
    case Value::Kind::String: return v.as_string();
    case Value::Kind::Array: {
      nlohmann::json a = nlohmann::json::array();
      for (const Value& e : v.as_array()) a.push_back(ToNlohmann(e));
      return a;
    }
    case Value::Kind::Object: {
      nlohmann::json o = nlohmann::json::object();
      for (const auto& [k, e] : v.as_object()) o[k] = ToNlohmann(e);
      return o;
    }
  }
  return nullptr;
}

Value FromNlohmann(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::boolean: return j.get<bool>();
    case nlohmann::json::value_t::number_integer: return j.get<int64_t>();
    case nlohmann::json::value_t::number_unsigned: return j.get<uint64_t>();
    case nlohmann::json::value_t::number_float: return j.get<double>();
    case nlohmann::json::value_t::string: return j.get<std::string>();
    case nlohmann::json::value_t::array: {
      Value::Array a;
      a.reserve(j.size());
      for (const nlohmann::json& e : j) a.push_back(FromNlohmann(e));
      return Value(std::move(a));
    }
    case nlohmann::json::value_t::object: {
      Value::Object o;
      for (const auto& item : j.items()) o.emplace(item.key(), FromNlohmann(item.value()));
      return Value(std::move(o));
    }
    default: return Value();
  }
}

std::string DumpJson(const Value& v, int indent) {
  return ToNlohmann(v).dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

Value ParseJson(std::string_view text) {
  try {
    return FromNlohmann(nlohmann::json::parse(text));
  } catch (const nlohmann::json::exception& e) {
    throw Error::General(std::string("not JSON: ") + e.what());
  }
}

std::ostream& operator<<(std::ostream& out, const Value& v) { return out << DumpJson(v); }

}  // namespace animkit
