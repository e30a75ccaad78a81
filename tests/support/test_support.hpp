// Helpers shared by the format tests.
#pragma once

#include <animkit/animkit.hpp>
#include <synthetic/synthetic.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

// A walk at real size (the real files, or one made at their size): the release build runs
// it (tests/CMakeLists.txt); under the sanitizers it takes ten times as long, and the same
// code runs there on the smaller files.
#ifdef ANIMKIT_TESTS_UNDER_SANITIZERS
#define ANIMKIT_REAL_SIZE_WALK_IN_RELEASE_ONLY() GTEST_SKIP() << "a real-size walk: the release build runs it"
#else
#define ANIMKIT_REAL_SIZE_WALK_IN_RELEASE_ONLY() static_cast<void>(0)
#endif

namespace animkit::test {

// Path of a file under the source tree (samples/, tests/data/).
std::string SourcePath(const std::string& relative);
// ../shared/fixtures/<relative> beside the checkout, or "" when absent.
std::string FixturePath(const std::string& relative);
// The bytes of ../shared/fixtures/<relative>, or none when it is absent.
Bytes FixtureBytes(const std::string& relative);
// The message of the animkit::Error f throws, or "" when it throws none.
std::string ErrorOf(const std::function<void()>& f);
// A fresh empty directory for one test.
std::filesystem::path TempDir(const std::string& name);
// Runs the CLI; returns its exit status, stdout and stderr in out/err.
int RunCli(const std::string& args, std::string* out = nullptr, std::string* err = nullptr);

// argv for running the CLI directly (fork/exec, posix_spawn): the CLI's path, args,
// then nullptr; valid while the object lives.
class CliArgv {
 public:
  explicit CliArgv(const std::vector<std::string>& args);
  char** data() { return pointers_.data(); }

 private:
  std::vector<std::string> strings_;
  std::vector<char*> pointers_;
};

// q equals (x, y, z, w) as a rotation (either sign) within tol per component.
void ExpectQuat(QuatXYZW q, double x, double y, double z, double w, double tol = 1e-6);
// v equals (x, y, z) within tol per component.
void ExpectVec(Vec3 v, double x, double y, double z, double tol = 1e-6);
// text contains part; a test failure naming both when it does not.
bool Has(const std::string& text, const std::string& part);

// Little-endian byte builder for hand-written files (strings as UTF-16 with a 0 after).
struct LittleEndianBuilder {
  Bytes b;
  void U16(uint16_t v) { b.push_back(uint8_t(v)), b.push_back(uint8_t(v >> 8)); }
  void U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
  }
  void F32(float v) { U32(std::bit_cast<uint32_t>(v)); }
  void Str(const char* s) {
    for (; *s; ++s) U16(uint8_t(*s));
    U16(0);
  }
  size_t size() const { return b.size(); }
};

// Runs a shell command; returns its exit status, with stdout and stderr in output.
int RunCommand(const std::string& command, std::string* output);
// Why the Khronos glTF validator cannot run here ("" when it can): node and the
// gltf-validator package under $ANIMKIT_NODE_MODULES are needed.
std::string GltfValidatorSkipReason();
// Runs tools/gltf-validate/validate.mjs on the files: 0 when every file has 0 errors and 0 warnings.
int RunGltfValidator(const std::vector<std::filesystem::path>& files, std::string* output);
// How many of the validator's reports in output say 0 errors and 0 warnings.
size_t CleanValidatorReports(const std::string& output);

// Reading then writing gives the same bytes.
void ExpectByteExactRoundTrip(const FormatDescriptor& format, ByteView data);
// Every proper prefix of data is rejected with an animkit::Error (never a crash,
// hang or other exception). Prefixes that happen to be valid files are allowed
// when allow_valid_prefix returns true for their length.
void ExpectEveryTruncationFails(const FormatDescriptor& format, ByteView data,
                                bool (*allow_valid_prefix)(size_t length) = nullptr);
// Reading data either fails with animkit::Error, or succeeds and then decodes
// without any other exception. For corrupted-field sweeps.
void ExpectErrorOrValid(const FormatDescriptor& format, ByteView data);
// ExpectErrorOrValid for every byte in [0, end) of data set in turn to each of 00, 01, 7F,
// 80 and FF (end 0: every byte): a corrupted field is an error or a valid file, nothing else.
void ExpectEveryByteCorruptionHandled(const FormatDescriptor& format, ByteView data, size_t end = 0);
// The message of the Error that reading data throws ("" when it reads fine).
std::string ReadError(const FormatDescriptor& format, ByteView data);

}  // namespace animkit::test
