// What several KH2 test files share.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/error.hpp>

#include <gtest/gtest.h>

namespace animkit::test {

// Every prefix of `full` (shorter than it, a copy of its own size, so the sanitizer build
// sees a read past it) given to read(prefix, length): an animkit::Error, or a read the
// caller checks. At least one prefix reads; none throws anything else.
template <typename Read>
void ExpectEveryPrefixIsAnErrorOrRead(const Bytes& full, Read read) {
  size_t errors = 0, reads = 0;
  for (size_t n = 0; n < full.size(); ++n) {
    const Bytes cut(full.begin(), full.begin() + std::ptrdiff_t(n));
    try {
      read(ByteView(cut), n);
      ++reads;
    } catch (const Error&) {
      ++errors;
    }
  }
  EXPECT_EQ(errors + reads, full.size());
  EXPECT_GT(reads, 0u);
}

}  // namespace animkit::test
