// A header's fields declared once, in file order: reading, writing and `info` walk the
// same list, so they cannot disagree on order, width or name. A field is a name (what
// errors call it and its `info` key) and a member; the member's type gives the width:
// uint8_t U8 (char: a byte of a name), int16_t I16, uint16_t U16, int32_t I32, uint32_t U32, float F32, and a
// std::array of those, element after element.
//
// A table is a counted run of one record: ReadTable checks that the run fits before it
// allocates, and DescribeTable gives `info` one object per record from the same list.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/error.hpp>
#include <animkit/core/value.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace animkit::fields {

template <class S, class M>
struct Field {
  const char* name;
  M S::*member;
};
template <class S, class M>
Field(const char*, M S::*) -> Field<S, M>;

// The fields of S in file order: List(Field{"a", &S::a}, Field{"b", &S::b}, ...).
template <class... F>
constexpr std::tuple<F...> List(F... fields) {
  return {fields...};
}

inline void Read(ByteReader& r, uint8_t& v, const char* what) { v = r.U8(what); }
inline void Read(ByteReader& r, int8_t& v, const char* what) { v = r.I8(what); }
inline void Read(ByteReader& r, char& v, const char* what) { v = static_cast<char>(r.U8(what)); }
inline void Read(ByteReader& r, int16_t& v, const char* what) { v = r.I16(what); }
inline void Read(ByteReader& r, uint16_t& v, const char* what) { v = r.U16(what); }
inline void Read(ByteReader& r, int32_t& v, const char* what) { v = r.I32(what); }
inline void Read(ByteReader& r, uint32_t& v, const char* what) { v = r.U32(what); }
inline void Read(ByteReader& r, float& v, const char* what) { v = r.F32(what); }
template <class T, size_t N>
void Read(ByteReader& r, std::array<T, N>& a, const char* what) {
  for (T& v : a) Read(r, v, what);
}

inline void Write(ByteWriter& w, uint8_t v) { w.U8(v); }
inline void Write(ByteWriter& w, int8_t v) { w.I8(v); }
inline void Write(ByteWriter& w, char v) { w.U8(static_cast<uint8_t>(v)); }
inline void Write(ByteWriter& w, int16_t v) { w.I16(v); }
inline void Write(ByteWriter& w, uint16_t v) { w.U16(v); }
inline void Write(ByteWriter& w, int32_t v) { w.I32(v); }
inline void Write(ByteWriter& w, uint32_t v) { w.U32(v); }
inline void Write(ByteWriter& w, float v) { w.F32(v); }
template <class T, size_t N>
void Write(ByteWriter& w, const std::array<T, N>& a) {
  for (const T& v : a) Write(w, v);
}

// The width in bytes of one field's type, and of a whole record.
template <class T>
constexpr size_t Width() {
  if constexpr (requires { std::tuple_size<T>::value; })
    return std::tuple_size<T>::value * Width<typename T::value_type>();
  else
    return sizeof(T);
}
template <class S, class M>
constexpr size_t Width(const Field<S, M>&) {
  return Width<M>();
}
template <class List>
constexpr size_t Size(const List& list) {
  return std::apply([](const auto&... f) { return (size_t{0} + ... + Width(f)); }, list);
}

// Reads every field of list into s, in order.
template <class S, class List>
void ReadAll(ByteReader& r, S& s, const List& list) {
  std::apply([&](const auto&... f) { (Read(r, s.*(f.member), f.name), ...); }, list);
}

// Writes every field of list from s, in order.
template <class S, class List>
void WriteAll(ByteWriter& w, const S& s, const List& list) {
  std::apply([&](const auto&... f) { (Write(w, s.*(f.member)), ...); }, list);
}

// Writes the fields of list from s over image at `at` (a record patched in place in a
// file image that keeps every other byte); Error when the record does not fit.
template <class S, class List>
void WriteAt(Bytes& image, size_t at, Endian endian, const S& s, const List& list) {
  ByteWriter w(endian);
  WriteAll(w, s, list);
  const Bytes bytes = w.Take();
  if (at > image.size() || bytes.size() > image.size() - at)
    throw Error::General("a record at " + Hex(at) + " lies outside the file image");
  std::copy(bytes.begin(), bytes.end(), image.begin() + static_cast<std::ptrdiff_t>(at));
}

// Sets info[name] for every field of list.
template <class S, class List>
void Describe(Value& info, const S& s, const List& list) {
  std::apply([&](const auto&... f) { ((info[f.name] = Value(s.*(f.member))), ...); }, list);
}

// Reads count records at r's position; the run is checked to fit before anything is
// allocated; an error names the field and its offset.
template <class S, class List>
std::vector<S> ReadTable(ByteReader& r, uint64_t count, const List& list, std::string_view what) {
  std::vector<S> out(r.Count(count, Size(list), what));
  for (S& s : out) ReadAll(r, s, list);
  return out;
}

template <class S, class List>
void WriteTable(ByteWriter& w, const std::vector<S>& records, const List& list) {
  for (const S& s : records) WriteAll(w, s, list);
}

// One object per record, keyed by the list's names (`info --full`).
template <class S, class List>
Value DescribeTable(const std::vector<S>& records, const List& list) {
  Value::Array out;
  out.reserve(records.size());
  for (const S& s : records) {
    Value one = Value::Object{};
    Describe(one, s, list);
    out.push_back(std::move(one));
  }
  return Value(std::move(out));
}

}  // namespace animkit::fields
