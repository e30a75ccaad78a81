// animkit::Value: the library's own tree of plain values (null, bool, signed and
// unsigned integers, double, string, array, object) for format metadata, Info() and
// encoder reports. Front ends walk it directly (a Python module turns it into dicts);
// DumpJson gives the JSON text the CLI prints. Object keys are kept sorted, so the
// text is the same whatever order the keys were set in.
//
// The API is the small subset of the usual C++ JSON-tree API the library needs: a
// braced list whose elements are all [string, value] pairs makes an object, any other
// list an array; numbers keep whether they came from a signed, unsigned or floating type.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace animkit {

class Value;

namespace value_detail {
template <class T>
concept Integer = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
concept StringLike = std::is_convertible_v<const T&, std::string_view>;
// A container of convertible elements; a type whose elements are of its own type (a
// JSON tree of another library) is not one, so it cannot be taken in by mistake.
template <class R>
concept Sequence = !StringLike<R> && !std::is_same_v<std::remove_cvref_t<R>, Value> &&
                   requires(const R& r) { r.begin(); r.end(); } &&
                   !std::is_same_v<std::remove_cvref_t<decltype(*std::declval<const R&>().begin())>, R>;
template <class R>
concept Mapping = Sequence<R> && requires { typename R::key_type; typename R::mapped_type; };
}  // namespace value_detail

class Value {
 public:
  enum class Kind { Null, Bool, Integer, Unsigned, Double, String, Array, Object };
  using Array = std::vector<Value>;
  using Object = std::map<std::string, Value, std::less<>>;
  using value_type = Value;

  template <bool Const>
  class BasicIterator;
  using iterator = BasicIterator<false>;
  using const_iterator = BasicIterator<true>;

  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool b) : data_(b) {}
  template <value_detail::Integer T>
  Value(T v) {
    if constexpr (std::is_signed_v<T>) data_ = static_cast<int64_t>(v);
    else data_ = static_cast<uint64_t>(v);
  }
  template <class T>
    requires std::is_floating_point_v<T>
  Value(T v) : data_(static_cast<double>(v)) {}
  Value(const char* s) : data_(std::string(s)) {}
  Value(std::string s) : data_(std::move(s)) {}
  Value(std::string_view s) : data_(std::string(s)) {}
  Value(Array a) : data_(std::move(a)) {}
  Value(Object o) : data_(std::move(o)) {}
  // An object when every element is a [string, value] pair, else an array.
  Value(std::initializer_list<Value> init);
  template <value_detail::Sequence R>
    requires(!value_detail::Mapping<R>)
  Value(const R& range) : data_(Array{}) {
    Array& a = std::get<Array>(data_);
    for (const auto& v : range) a.emplace_back(v);
  }
  template <value_detail::Mapping R>
  Value(const R& map) : data_(Object{}) {
    Object& o = std::get<Object>(data_);
    for (const auto& [k, v] : map) o.emplace(std::string(k), Value(v));
  }

  static Value array(std::initializer_list<Value> init = {});
  // Every element must be a [string, value] pair (Error otherwise).
  static Value object(std::initializer_list<Value> init = {});

  Kind kind() const { return static_cast<Kind>(data_.index()); }
  bool is_null() const { return kind() == Kind::Null; }
  bool is_boolean() const { return kind() == Kind::Bool; }
  bool is_number() const { return is_number_integer() || kind() == Kind::Double; }
  bool is_number_integer() const { return kind() == Kind::Integer || kind() == Kind::Unsigned; }
  bool is_number_unsigned() const { return kind() == Kind::Unsigned; }
  bool is_number_float() const { return kind() == Kind::Double; }
  bool is_string() const { return kind() == Kind::String; }
  bool is_array() const { return kind() == Kind::Array; }
  bool is_object() const { return kind() == Kind::Object; }
  bool is_structured() const { return is_array() || is_object(); }
  bool is_primitive() const { return !is_structured(); }

  // Elements of an array or object; 0 for null, 1 for any other value.
  size_t size() const;
  bool empty() const { return size() == 0; }

  // The stored alternatives; Error when the value is of another kind.
  const Array& as_array() const;
  const Object& as_object() const;
  const std::string& as_string() const;

  // Object member access; a null value becomes an object. Error on other kinds.
  Value& operator[](std::string_view key);
  // The member, or a null value when absent (or when this is not an object).
  const Value& operator[](std::string_view key) const;
  // Array element access; a null value becomes an array, grown with nulls as needed.
  template <value_detail::Integer I>
  Value& operator[](I index) {
    return Element(static_cast<size_t>(index));
  }
  template <value_detail::Integer I>
  const Value& operator[](I index) const {  // null when out of range
    return Element(static_cast<size_t>(index));
  }
  const Value& at(std::string_view key) const;  // Error when absent
  const Value& at(size_t index) const;          // Error when out of range

  bool contains(std::string_view key) const;
  iterator find(std::string_view key);
  const_iterator find(std::string_view key) const;
  size_t erase(std::string_view key);  // removes an object member; returns how many
  // Sets every member of other (an object) in this object; a null value becomes one.
  void update(const Value& other);
  // Appends to an array; a null value becomes one.
  void push_back(Value v);
  Value& front() { return MutableArray().front(); }
  Value& back() { return MutableArray().back(); }
  const Value& front() const { return as_array().front(); }
  const Value& back() const { return as_array().back(); }

  // Arrays iterate their elements, objects their member values (key() names them);
  // other values have no elements.
  iterator begin();
  iterator end();
  const_iterator begin() const;
  const_iterator end() const;

  // Key/value pairs of an object: `for (auto item : v.items()) item.key(), item.value()`.
  template <bool Const>
  class ItemRange;
  ItemRange<false> items();
  ItemRange<true> items() const;

  // The value as T: bool, an arithmetic type (any number converts, as static_cast
  // would), std::string, std::vector<U> or Value. Error when the kind does not fit.
  template <class T>
  T get() const;
  // The member converted to the default's type, or the default when absent.
  template <class T>
  T value(std::string_view key, const T& fallback) const;
  std::string value(std::string_view key, const char* fallback) const {
    return value<std::string>(key, std::string(fallback));
  }

  // Numbers compare by value across signed, unsigned and double; other kinds must match.
  friend bool operator==(const Value& a, const Value& b);

 private:
  Array& MutableArray();
  Value& Element(size_t index);
  const Value& Element(size_t index) const;
  [[noreturn]] void KindError(std::string_view expected) const;
  double NumberAsDouble() const;

  std::variant<std::monostate, bool, int64_t, uint64_t, double, std::string, Array, Object> data_;
};

template <bool Const>
class Value::BasicIterator {
  using ArrayIt = std::conditional_t<Const, Array::const_iterator, Array::iterator>;
  using ObjectIt = std::conditional_t<Const, Object::const_iterator, Object::iterator>;

 public:
  using value_type = Value;
  using reference = std::conditional_t<Const, const Value&, Value&>;
  using pointer = std::conditional_t<Const, const Value*, Value*>;
  using difference_type = std::ptrdiff_t;
  using iterator_category = std::forward_iterator_tag;

  BasicIterator() = default;
  explicit BasicIterator(ArrayIt it) : it_(it) {}
  explicit BasicIterator(ObjectIt it) : it_(it) {}

  reference operator*() const {
    return it_.index() == 1 ? *std::get<1>(it_) : std::get<2>(it_)->second;
  }
  pointer operator->() const { return &**this; }
  reference value() const { return **this; }
  // The member's name (objects), or the element's index as text (arrays).
  std::string key() const;
  BasicIterator& operator++() {
    if (it_.index() == 1) ++std::get<1>(it_);
    else if (it_.index() == 2) ++std::get<2>(it_);
    ++index_;
    return *this;
  }
  BasicIterator operator++(int) {
    BasicIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const BasicIterator& other) const { return it_ == other.it_; }

 private:
  friend class Value;
  std::variant<std::monostate, ArrayIt, ObjectIt> it_;
  size_t index_ = 0;  // position in an array, for key()
};

template <bool Const>
class Value::ItemRange {
 public:
  using Iterator = BasicIterator<Const>;
  class Step {
   public:
    explicit Step(Iterator it) : it_(it) {}
    const Iterator& operator*() const { return it_; }
    Step& operator++() {
      ++it_;
      return *this;
    }
    bool operator==(const Step& other) const { return it_ == other.it_; }

   private:
    Iterator it_;
  };
  ItemRange(Iterator b, Iterator e) : begin_(b), end_(e) {}
  Step begin() const { return Step(begin_); }
  Step end() const { return Step(end_); }

 private:
  Iterator begin_, end_;
};

template <bool Const>
std::string Value::BasicIterator<Const>::key() const {
  if (it_.index() == 2) return std::get<2>(it_)->first;
  return std::to_string(index_);
}

template <class T>
T Value::value(std::string_view key, const T& fallback) const {
  const auto it = find(key);
  return it == end() ? fallback : it->template get<T>();
}

inline Value::ItemRange<false> Value::items() { return {begin(), end()}; }
inline Value::ItemRange<true> Value::items() const { return {begin(), end()}; }

template <class T>
T Value::get() const {
  using U = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<U, Value>) {
    return *this;
  } else if constexpr (std::is_same_v<U, bool>) {
    if (!is_boolean()) KindError("a boolean");
    return std::get<bool>(data_);
  } else if constexpr (std::is_arithmetic_v<U>) {
    if (kind() == Kind::Integer) return static_cast<U>(std::get<int64_t>(data_));
    if (kind() == Kind::Unsigned) return static_cast<U>(std::get<uint64_t>(data_));
    if (kind() != Kind::Double) KindError("a number");
    return static_cast<U>(std::get<double>(data_));
  } else if constexpr (std::is_same_v<U, std::string>) {
    return as_string();
  } else {
    U out;
    for (const Value& v : as_array()) out.push_back(v.get<typename U::value_type>());
    return out;
  }
}

// JSON text of v (the CLI's output format: compact numbers, sorted keys); strings read from files need not be
// UTF-8, so invalid bytes become U+FFFD instead of failing. indent < 0 writes one line.
std::string DumpJson(const Value& v, int indent = -1);
// The value of JSON text; Error (naming the place) when it is not JSON.
Value ParseJson(std::string_view text);
// Writes DumpJson(v) (for test failure messages and logs).
std::ostream& operator<<(std::ostream& out, const Value& v);

}  // namespace animkit
