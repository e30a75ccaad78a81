#include <animkit/core/error.hpp>
#include <animkit/io/io.hpp>
#include <animkit/io/path.hpp>

#include "io/platform.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace animkit {

Bytes ReadFileBytes(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(PathOf(path), ec)) throw Error::General("is a directory, expected a file").InFile(path);
  std::ifstream in(PathOf(path), std::ios::binary);
  if (!in) {
    const int err = errno;
    throw Error::FromSystem(std::string("cannot open: ") + std::strerror(err), err).InFile(path);
  }
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size < 0) throw Error::General("cannot determine the file size").InFile(path);
  in.seekg(0);
  Bytes data(static_cast<size_t>(size));
  if (size > 0 && !in.read(reinterpret_cast<char*>(data.data()), size)) {
    throw Error::General("read failed").InFile(path);
  }
  return data;
}

namespace {

[[noreturn]] void FailWith(const std::string& path, const char* what, int err) {
  throw Error::FromSystem(std::string(what) + ": " + std::strerror(err), err).InFile(path);
}

// Why a temporary file could not be made in dir: a folder that does not exist (or is not a
// folder) is named, since the file itself is not the problem.
[[noreturn]] void FailToCreateIn(const std::filesystem::path& dir, const std::string& path, int err) {
  std::error_code ec;
  if (err == ENOENT || err == ENOTDIR) {
    if (!std::filesystem::exists(dir, ec))
      throw Error::FromSystem("cannot write: the folder " + TextOf(dir) + " does not exist", err).InFile(path);
  }
  if (!std::filesystem::is_directory(dir, ec)) {
    throw Error::FromSystem("cannot write: " + TextOf(dir) + " is not a folder", err).InFile(path);
  }
  FailWith(path, ("cannot create a temporary file in " + TextOf(dir)).c_str(), err);
}

}  // namespace

MappedFile::MappedFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(PathOf(path), ec)) throw Error::General("is a directory, expected a file").InFile(path);
  platform::Mapping mapping;
  const char* what = "";
  if (!platform::MapReadOnly(path, mapping, what)) FailWith(path, what, platform::LastError());
  data_ = mapping.data;
  size_ = mapping.size;
  handle_ = mapping.handle;
}

MappedFile::~MappedFile() { platform::Unmap({data_, size_, handle_}); }

std::string TemporaryTemplate(const std::string& file_name, std::string_view run_tag) {
  std::string name = "." + file_name + ".tmp-";
  if (!run_tag.empty()) name += std::string(run_tag) + "-";
  return name + "XXXXXX";
}

AtomicFile::AtomicFile(std::string path, const std::vector<std::string>& never_over, std::string_view run_tag)
    : path_(std::move(path)) {
  namespace fs = std::filesystem;
  CheckNotAnInput(path_, never_over);
  const fs::path target = PathOf(path_);
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::string name = TextOf(dir / PathOf(TemporaryTemplate(TextOf(target.filename()), run_tag)));
  file_ = platform::CreateUnique(name);
  if (file_ == platform::kNoFile) FailToCreateIn(dir, path_, platform::LastError());
  temp_ = name;
}

AtomicFile::~AtomicFile() {
  if (file_ != platform::kNoFile) platform::Close(file_);
  if (!temp_.empty()) platform::RemoveFile(temp_);
}

void AtomicFile::Write(ByteView bytes) {
  if (file_ == platform::kNoFile) throw Error::General("write after commit").InFile(path_);
  if (!platform::WriteAll(file_, bytes)) FailWith(path_, "write failed", platform::LastError());
  size_ += bytes.size();
}

void AtomicFile::Write(std::string_view text) {
  Write(ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void AtomicFile::Commit() {
  if (file_ == platform::kNoFile) throw Error::General("committed twice").InFile(path_);
  const platform::FileHandle file = file_;
  file_ = platform::kNoFile;
  const char* what = "";
  if (!platform::FinishAndClose(file, what)) FailWith(path_, what, platform::LastError());
  if (!platform::MoveIntoPlace(temp_, path_)) FailWith(path_, "cannot rename into place", platform::LastError());
  temp_.clear();  // renamed: nothing to remove
}

void WriteFileAtomic(const std::string& path, ByteView bytes, const std::vector<std::string>& never_over,
                     std::string_view run_tag) {
  AtomicFile out(path, never_over, run_tag);
  out.Write(bytes);
  out.Commit();
}

std::vector<WrittenFile> WriteOutputs(const std::vector<std::pair<std::string, ByteView>>& files,
                                      const std::vector<std::string>& never_over, std::string_view run_tag) {
  for (size_t i = 0; i < files.size(); ++i) {
    CheckNotAnInput(files[i].first, never_over);
    for (size_t j = 0; j < i; ++j)
      if (files[j].first == files[i].first) throw Error::General("written twice by one command").InFile(files[i].first);
  }
  std::vector<WrittenFile> written;
  for (const auto& [path, bytes] : files) {
    WriteFileAtomic(path, bytes, never_over, run_tag);
    written.push_back({path, bytes.size()});
  }
  return written;
}

void CheckNotAnInput(const std::string& path, const std::vector<std::string>& never_over) {
  for (const std::string& input : never_over) {
    if (input.empty()) continue;
    if (input == path || SameFile(input, path)) {
      throw Error::General("refusing to write over a file this command reads").InFile(path);
    }
  }
}

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(PathOf(a), PathOf(b), ec) && !ec;
}

}  // namespace animkit
