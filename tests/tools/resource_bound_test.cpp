// Every verb on every sample, fuzz seed and hand-made hostile file stays within
// 64 MiB + 64 x the input's size of peak resident memory, and within 10 s per MB
// of input + 1 s (docs/reliability.md).
#include "support/test_support.hpp"

#include <animkit/formats/kh2.hpp>

#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace animkit {
namespace {

namespace fs = std::filesystem;

struct Usage {
  int status = -1;
  uint64_t peak_bytes = 0;
  double seconds = 0;
};

// Runs the CLI with args (stdout and stderr to /dev/null) through animkit_peak_rss; its
// peak resident size and wall time.
Usage RunMeasured(const std::vector<std::string>& args, double timeout_seconds) {
  std::vector<std::string> command = {ANIMKIT_PEAK_RSS_PATH, std::to_string(int(timeout_seconds) + 2), ANIMKIT_CLI_PATH};
  command.insert(command.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& part : command) argv.push_back(part.data());
  argv.push_back(nullptr);
  int out[2];
  if (pipe(out) != 0) return {};
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(out[1]);
  std::string report;
  char buffer[256];
  for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) report.append(buffer, size_t(n));
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  Usage u;
  u.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  long peak_kb = 0;
  if (std::sscanf(report.c_str(), "%d %ld", &u.status, &peak_kb) != 2) u.status = -1;
  u.peak_bytes = uint64_t(peak_kb) * 1024;  // Linux: kilobytes
  return u;
}

void PutU32LE(Bytes& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
}

// Files built to hurt: a header count with nothing behind it, nested archives
// whose entries overlap, a glTF pointing outside its folder.
std::vector<fs::path> HostileFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  auto write = [&](const std::string& name, const Bytes& bytes) {
    std::ofstream(dir / name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    files.push_back(dir / name);
  };
  Bytes anim(48, 0);
  anim[0x0C] = 0x3D, anim[0x0D] = 0x08, anim[0x0E] = 0x88, anim[0x0F] = 0x89;  // 1/30 s
  anim[0x14] = anim[0x15] = anim[0x16] = anim[0x17] = 0xFF;                     // 4294967295 keys
  write("keys.anim", anim);
  // 8 ANB entries per level, all pointing at the next level, 9 levels deep.
  const uint32_t fan = 8;
  const int levels = 9;
  const size_t level_size = 16 + 16 * size_t(fan);
  Bytes bar(level_size * levels + 16, 0);
  for (int l = 0; l <= levels; ++l) {
    const size_t at = level_size * size_t(l);
    bar[at] = 'B', bar[at + 1] = 'A', bar[at + 2] = 'R', bar[at + 3] = 1;
    if (l == levels) break;
    PutU32LE(bar, at + 4, fan);
    for (uint32_t e = 0; e < fan; ++e) {
      const size_t entry = at + 16 + 16 * size_t(e);
      bar[entry] = uint8_t(kh2::kEntryAnb);
      PutU32LE(bar, entry + 8, uint32_t(level_size));
      PutU32LE(bar, entry + 12, uint32_t(bar.size() - at - level_size));
    }
  }
  write("fan.mset", bar);
  const std::string gltf = R"({"asset":{"version":"2.0"},"buffers":[{"uri":"x/../../secret.bin","byteLength":2000000000}]})";
  write("outside.gltf", Bytes(gltf.begin(), gltf.end()));
  return files;
}

TEST(ResourceBounds, EveryVerbOnEveryFileStaysWithinMemoryAndTime) {
  // The build's define, not the compiler's: the tests' own code is compiled without the
  // sanitizers while the CLI it measures carries them (tests/CMakeLists.txt).
#ifdef ANIMKIT_TESTS_UNDER_SANITIZERS
  GTEST_SKIP() << "peak memory is measured on the plain build (sanitizers reserve and shadow memory)";
#endif
  const fs::path dir = test::TempDir("resource-bounds");
  std::vector<fs::path> inputs = HostileFiles(dir);
  for (const char* root : {"samples", "fuzz/corpus"}) {
    const fs::path r = test::SourcePath(root);
    if (!fs::is_directory(r)) continue;
    for (const auto& e : fs::recursive_directory_iterator(r))
      if (e.is_regular_file()) inputs.push_back(e.path());
  }
  ASSERT_GT(inputs.size(), 10u);
  size_t runs = 0;
  uint64_t worst_peak = 0;
  for (const fs::path& input : inputs) {
    const uint64_t size = fs::file_size(input);
    const uint64_t memory_bound = (uint64_t{64} << 20) + 64 * size;
    const double time_bound = 10.0 * double(size) / 1e6 + 1.0;
    const std::string in = input.string();
    const std::vector<std::vector<std::string>> verbs = {
        {"info", in}, {"sample", in}, {"validate", in}, {"convert", in, (dir / "out.glb").string()}};
    for (const auto& args : verbs) {
      const Usage u = RunMeasured(args, time_bound);
      ++runs;
      worst_peak = std::max(worst_peak, u.peak_bytes);
      EXPECT_TRUE(WIFEXITED(u.status)) << args[0] << " " << in << " was killed (signal " << WTERMSIG(u.status) << ")";
      EXPECT_LE(u.peak_bytes, memory_bound) << args[0] << " " << in;
      EXPECT_LE(u.seconds, time_bound) << args[0] << " " << in;
    }
  }
  std::printf("%zu runs, worst peak resident %.1f MiB\n", runs, double(worst_peak) / (1 << 20));
}

}  // namespace
}  // namespace animkit
