// One error type for every failure a user can cause: it names the file, the place
// (byte offset, or line and column) and what was expected.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>

namespace animkit {

class Error : public std::exception {
 public:
  static Error AtOffset(uint64_t byte_offset, std::string message);
  static Error AtLine(int line, int column, std::string message);
  static Error General(std::string message);
  // A failure of the operating system's (open, create): errno kept, so that a front end can
  // tell a missing file (ENOENT) from the rest (Python raises FileNotFoundError).
  static Error FromSystem(std::string message, int system_error);

  // The same error, naming the file it came from (kept when already set).
  Error InFile(const std::string& file) const;

  const char* what() const noexcept override { return text_.c_str(); }
  const std::string& message() const { return message_; }
  const std::string& file() const { return file_; }
  std::optional<uint64_t> byte_offset() const { return offset_; }
  std::optional<int> line() const { return line_; }
  std::optional<int> column() const { return column_; }
  std::optional<int> system_error() const { return system_error_; }  // errno, for FromSystem

 private:
  void Format();
  std::string file_, message_, text_;
  std::optional<uint64_t> offset_;
  std::optional<int> line_, column_;
  std::optional<int> system_error_;
};

}  // namespace animkit
