#include "support/test_support.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace animkit::test {

CliArgv::CliArgv(const std::vector<std::string>& args) : strings_(args) {
  strings_.insert(strings_.begin(), ANIMKIT_CLI_PATH);
  for (std::string& s : strings_) pointers_.push_back(s.data());
  pointers_.push_back(nullptr);
}

std::string SourcePath(const std::string& relative) { return std::string(ANIMKIT_SOURCE_DIR) + "/" + relative; }

std::string FixturePath(const std::string& relative) {
  std::filesystem::path p = std::filesystem::path(ANIMKIT_SOURCE_DIR).parent_path() / "shared" / "fixtures" / relative;
  return std::filesystem::exists(p) ? p.string() : std::string();
}

Bytes FixtureBytes(const std::string& relative) {
  const std::string path = FixturePath(relative);
  return path.empty() ? Bytes{} : ReadFileBytes(path);
}

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

std::filesystem::path TempDir(const std::string& name) {
  std::filesystem::path p = std::filesystem::path(ANIMKIT_BINARY_DIR) / "test-tmp" / name;
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

int RunCli(const std::string& args, std::string* out, std::string* err) {
  // One stderr file per call and process: ctest runs tests in parallel.
  static int calls = 0;
  const std::filesystem::path dir = std::filesystem::path(ANIMKIT_BINARY_DIR) / "test-tmp" / "cli-stderr";
  std::filesystem::create_directories(dir);
  const std::filesystem::path err_file =
      dir / ("stderr-" + std::to_string(getpid()) + "-" + std::to_string(++calls) + ".txt");
  std::string cmd = std::string(ANIMKIT_CLI_PATH) + " " + args + " 2>" + err_file.string();
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return -1;
  std::string captured;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) captured.append(buf.data(), n);
  int status = pclose(pipe);
  if (out) *out = captured;
  if (err) {
    std::ifstream in(err_file);
    err->assign(std::istreambuf_iterator<char>(in), {});
  }
  std::filesystem::remove(err_file);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void ExpectQuat(QuatXYZW q, double x, double y, double z, double w, double tol) {
  if (q.w * w + q.x * x + q.y * y + q.z * z < 0) q = {-q.x, -q.y, -q.z, -q.w};
  EXPECT_NEAR(q.x, x, tol);
  EXPECT_NEAR(q.y, y, tol);
  EXPECT_NEAR(q.z, z, tol);
  EXPECT_NEAR(q.w, w, tol);
}

void ExpectVec(Vec3 v, double x, double y, double z, double tol) {
  EXPECT_NEAR(v.x, x, tol);
  EXPECT_NEAR(v.y, y, tol);
  EXPECT_NEAR(v.z, z, tol);
}

bool Has(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return true;
  ADD_FAILURE() << "'" << text << "' lacks '" << part << "'";
  return false;
}

int RunCommand(const std::string& command, std::string* output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) output->append(buf.data(), n);
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string GltfValidatorSkipReason() {
  const char* modules = std::getenv("ANIMKIT_NODE_MODULES");
  if (!modules || !*modules) return "ANIMKIT_NODE_MODULES is not set (make test points it at build/node/node_modules)";
  if (!std::filesystem::exists(std::filesystem::path(modules) / "gltf-validator" / "package.json")) {
    return std::string("no gltf-validator in ANIMKIT_NODE_MODULES=") + modules + " (npm install failed or npm is missing)";
  }
  std::string ignored;
  if (RunCommand("command -v node", &ignored) != 0) return "node is not on PATH";
  return {};
}

size_t CleanValidatorReports(const std::string& output) {
  const std::string clean = "\"errors\":0,\"warnings\":0";
  size_t count = 0;
  for (size_t at = output.find(clean); at != std::string::npos; at = output.find(clean, at + 1)) ++count;
  return count;
}

int RunGltfValidator(const std::vector<std::filesystem::path>& files, std::string* output) {
  std::string command = "node '" + SourcePath("tools/gltf-validate/validate.mjs") + "'";
  for (const auto& f : files) command += " '" + f.string() + "'";
  return RunCommand(command, output);
}

void ExpectByteExactRoundTrip(const FormatDescriptor& format, ByteView data) {
  auto doc = format.read(data, {});
  Bytes written = doc->Write();
  ASSERT_EQ(written.size(), data.size()) << format.id << ": written size differs";
  for (size_t i = 0; i < data.size(); ++i) {
    ASSERT_EQ(written[i], data[i]) << format.id << ": first differing byte at " << Hex(i);
  }
}

void ExpectEveryTruncationFails(const FormatDescriptor& format, ByteView data, bool (*allow_valid_prefix)(size_t)) {
  for (size_t len = 0; len < data.size(); ++len) {
    Bytes prefix(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(len));
    try {
      auto doc = format.read(prefix, {});
      if (allow_valid_prefix && allow_valid_prefix(len)) continue;
      ADD_FAILURE() << format.id << ": a truncation to " << len << " of " << data.size() << " bytes was accepted";
    } catch (const Error& e) {
      EXPECT_TRUE(e.byte_offset().has_value() || e.line().has_value())
          << format.id << ": error without a place at length " << len << ": " << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << format.id << ": truncation to " << len << " threw a non-animkit error: " << e.what();
    }
  }
}

void ExpectErrorOrValid(const FormatDescriptor& format, ByteView data) {
  try {
    auto doc = format.read(data, {});
    Scene scene = doc->Decode(DecodeContext{});
    (void)DumpJson(doc->Info());
    (void)doc->Write();
  } catch (const Error&) {
  } catch (const std::exception& e) {
    ADD_FAILURE() << format.id << ": threw a non-animkit error: " << e.what();
  }
}

void ExpectEveryByteCorruptionHandled(const FormatDescriptor& format, ByteView data, size_t end) {
  Bytes corrupted(data.begin(), data.end());
  for (size_t i = 0; i < (end ? std::min(end, data.size()) : data.size()); ++i) {
    for (uint8_t v : {0x00, 0x01, 0x7F, 0x80, 0xFF}) {
      corrupted[i] = v;
      SCOPED_TRACE("byte " + Hex(i) + " set to " + Hex(v));
      ExpectErrorOrValid(format, corrupted);
    }
    corrupted[i] = data[i];
  }
}

std::string ReadError(const FormatDescriptor& format, ByteView data) {
  try {
    format.read(data, {});
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace animkit::test
