#include <animkit/core/binary.hpp>
#include <animkit/core/error.hpp>

namespace animkit {

Error Error::AtOffset(uint64_t byte_offset, std::string message) {
  Error e;
  e.offset_ = byte_offset;
  e.message_ = std::move(message);
  e.Format();
  return e;
}

Error Error::AtLine(int line, int column, std::string message) {
  Error e;
  e.line_ = line;
  e.column_ = column;
  e.message_ = std::move(message);
  e.Format();
  return e;
}

Error Error::General(std::string message) {
  Error e;
  e.message_ = std::move(message);
  e.Format();
  return e;
}

Error Error::FromSystem(std::string message, int system_error) {
  Error e = General(std::move(message));
  e.system_error_ = system_error;
  return e;
}

Error Error::InFile(const std::string& file) const {
  Error e = *this;
  if (e.file_.empty()) e.file_ = file;
  e.Format();
  return e;
}

void Error::Format() {
  text_.clear();
  if (!file_.empty()) text_ += file_ + ": ";
  if (offset_) text_ += "offset " + Hex(*offset_) + ": ";
  if (line_) text_ += "line " + std::to_string(*line_) + ", column " + std::to_string(column_.value_or(1)) + ": ";
  text_ += message_;
}

}  // namespace animkit
