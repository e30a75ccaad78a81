// The Document of a format whose file is one parsed value: what every such document
// does the same way (its descriptor, writing the value back) is written here once.
#pragma once

#include "formats/common/descriptors.hpp"

#include <utility>

namespace animkit {

// F: the parsed file; kFormat: its descriptor; kSerialize: F back to its bytes. A format's
// document derives from this and adds Info() and Decode().
template <class F, const FormatDescriptor& kFormat, Bytes (*kSerialize)(const F&)>
class FileDocument : public Document {
 public:
  explicit FileDocument(F file) : file_(std::move(file)) {}
  const FormatDescriptor& format() const final { return kFormat; }
  Bytes Write() const final { return kSerialize(file_); }
  const F& file() const { return file_; }

 protected:
  F file_;
};

}  // namespace animkit
