// A header's fields declared once, in file order: reading, writing and `info` walk the
// same list, so they cannot disagree on order, width or name. A field is a name (what
// errors call it and its `info` key) and a member; the member's type gives the width:
// uint8_t U8 (char: a byte of a name), int16_t I16, uint16_t U16, int32_t I32, uint32_t U32, float F32, and a
// std::array of those, element after element.
//
// A record held inside another is a Sub field (its own list, read in place; `info` shows
// its keys beside the outer record's). Two arrays whose elements alternate in the file
// (a[0], b[0], a[1], b[1], ...) are one Interleaved field.
//
// A table is a counted run of one record: ReadTable checks that the run fits before it
// allocates, and DescribeTable gives `info` one object per record from the same list.
// ReadCounted and WriteCounted add the u32 count that precedes most tables; ReadValues
// and WriteValues do the same for a run of plain numbers.
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

// A member record of S read and written through its own list.
template <class S, class M, class L>
struct Sub {
  const char* name;
  M S::*member;
  L list;
};
template <class S, class M, class L>
Sub(const char*, M S::*, L) -> Sub<S, M, L>;

// Two equally long std::arrays of S, element i of a then element i of b.
template <class S, class A, class B>
struct Interleaved {
  const char* name_a;
  A S::*a;
  const char* name_b;
  B S::*b;
  static_assert(std::tuple_size<A>::value == std::tuple_size<B>::value, "interleaved arrays are equally long");
};
template <class S, class A, class B>
Interleaved(const char*, A S::*, const char*, B S::*) -> Interleaved<S, A, B>;

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
constexpr size_t Size(const List& list);
template <class S, class M, class L>
constexpr size_t Width(const Sub<S, M, L>& f) {
  return Size(f.list);
}
template <class S, class A, class B>
constexpr size_t Width(const Interleaved<S, A, B>&) {
  return Width<A>() + Width<B>();
}
template <class List>
constexpr size_t Size(const List& list) {
  return std::apply([](const auto&... f) { return (size_t{0} + ... + Width(f)); }, list);
}

template <class S, class List>
void ReadAll(ByteReader& r, S& s, const List& list);
template <class S, class List>
void WriteAll(ByteWriter& w, const S& s, const List& list);
template <class S, class List>
void Describe(Value& info, const S& s, const List& list);

// One field of s (an S, or a record derived from one): a number (or array), or a Sub
// record through its own list.
template <class T, class S, class M>
void ReadField(ByteReader& r, T& s, const Field<S, M>& f) {
  Read(r, s.*(f.member), f.name);
}
template <class T, class S, class M, class L>
void ReadField(ByteReader& r, T& s, const Sub<S, M, L>& f) {
  ReadAll(r, s.*(f.member), f.list);
}
template <class T, class S, class A, class B>
void ReadField(ByteReader& r, T& s, const Interleaved<S, A, B>& f) {
  for (size_t i = 0; i < std::tuple_size<A>::value; ++i) {
    Read(r, (s.*(f.a))[i], f.name_a);
    Read(r, (s.*(f.b))[i], f.name_b);
  }
}
template <class T, class S, class M>
void WriteField(ByteWriter& w, const T& s, const Field<S, M>& f) {
  Write(w, s.*(f.member));
}
template <class T, class S, class M, class L>
void WriteField(ByteWriter& w, const T& s, const Sub<S, M, L>& f) {
  WriteAll(w, s.*(f.member), f.list);
}
template <class T, class S, class A, class B>
void WriteField(ByteWriter& w, const T& s, const Interleaved<S, A, B>& f) {
  for (size_t i = 0; i < std::tuple_size<A>::value; ++i) {
    Write(w, (s.*(f.a))[i]);
    Write(w, (s.*(f.b))[i]);
  }
}
template <class T, class S, class M>
void DescribeField(Value& info, const T& s, const Field<S, M>& f) {
  info[f.name] = Value(s.*(f.member));
}
template <class T, class S, class M, class L>
void DescribeField(Value& info, const T& s, const Sub<S, M, L>& f) {
  Describe(info, s.*(f.member), f.list);
}
template <class T, class S, class A, class B>
void DescribeField(Value& info, const T& s, const Interleaved<S, A, B>& f) {
  info[f.name_a] = Value(s.*(f.a));
  info[f.name_b] = Value(s.*(f.b));
}

// Reads every field of list into s, in order.
template <class S, class List>
void ReadAll(ByteReader& r, S& s, const List& list) {
  std::apply([&](const auto&... f) { (ReadField(r, s, f), ...); }, list);
}

// Writes every field of list from s, in order.
template <class S, class List>
void WriteAll(ByteWriter& w, const S& s, const List& list) {
  std::apply([&](const auto&... f) { (WriteField(w, s, f), ...); }, list);
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
  std::apply([&](const auto&... f) { (DescribeField(info, s, f), ...); }, list);
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

// A u32 count at r's position, checked as ByteReader::Count checks one: min_size bytes per
// element must fit in what is left after it.
inline size_t ReadCount(ByteReader& r, uint64_t min_size, std::string_view what) {
  const uint32_t n = r.U32(std::string("the count of ") + std::string(what));
  return r.Count(n, min_size, what);
}

// A table's u32 count; Error when the table is too long for one.
inline void WriteCount(ByteWriter& w, size_t n) {
  if (n > UINT32_MAX) throw Error::General("a table of " + std::to_string(n) + " entries is too long for a 32-bit count");
  w.U32(static_cast<uint32_t>(n));
}

// A u32 count, then that many records.
template <class S, class List>
std::vector<S> ReadCounted(ByteReader& r, const List& list, std::string_view what) {
  return ReadTable<S>(r, ReadCount(r, Size(list), what), list, what);
}
template <class S, class List>
void WriteCounted(ByteWriter& w, const std::vector<S>& records, const List& list) {
  WriteCount(w, records.size());
  WriteTable(w, records, list);
}

// count plain numbers of type T (each a field named what), checked to fit first.
template <class T>
std::vector<T> ReadValues(ByteReader& r, uint64_t count, std::string_view what) {
  std::vector<T> out(r.Count(count, Width<T>(), what));
  const std::string name(what);
  for (T& v : out) Read(r, v, name.c_str());
  return out;
}
template <class T>
void WriteValues(ByteWriter& w, const std::vector<T>& values) {
  for (const T& v : values) Write(w, v);
}
// A u32 count, then that many plain numbers.
template <class T>
std::vector<T> ReadCountedValues(ByteReader& r, std::string_view what) {
  return ReadValues<T>(r, ReadCount(r, Width<T>(), what), what);
}
template <class T>
void WriteCountedValues(ByteWriter& w, const std::vector<T>& values) {
  WriteCount(w, values.size());
  WriteValues(w, values);
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
