#include "batch_command.hpp"

#include <animkit/pipeline/batch.hpp>
#include <animkit/core/error.hpp>
#include <animkit/io/io.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace animkit::cli {

namespace {

std::atomic<bool> g_cancel{false};
volatile std::sig_atomic_t g_signal = 0;

extern "C" void OnSignal(int sig) {
  g_signal = sig;
  g_cancel.store(true);
}

// SIGINT/SIGTERM stop the scheduling of further files; the handler is reset by
// the first signal, so a second one ends the program at once.
class SignalGuard {
 public:
  SignalGuard() {
    struct sigaction sa {};
    sa.sa_handler = OnSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~SignalGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

std::string Duration(double seconds) {
  if (!(seconds >= 0) || seconds > 359999) return "--:--";
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%02ld:%02ld", s / 60, s % 60);
  }
  return buf;
}

// Progress on stderr: a bar redrawn in place on a terminal, a plain line every
// few seconds otherwise (and always one at the end).
class ProgressPrinter {
 public:
  explicit ProgressPrinter(bool tty) : tty_(tty) {}

  void Update(const BatchProgress& p) {
    const auto now = std::chrono::steady_clock::now();
    const bool last = p.done == p.total;
    const double since = std::chrono::duration<double>(now - last_print_).count();
    if (!last && printed_ && since < (tty_ ? 0.1 : 5.0)) return;
    last_print_ = now;
    printed_ = true;
    const double rate = p.elapsed > 0 ? static_cast<double>(p.done) / p.elapsed : 0;
    const double eta = rate > 0 ? static_cast<double>(p.total - p.done) / rate : -1;
    const double fraction = p.total ? static_cast<double>(p.done) / static_cast<double>(p.total) : 1;
    char buf[256];
    if (tty_) {
      constexpr int kWidth = 30;
      const int fill = static_cast<int>(fraction * kWidth);
      std::string bar(static_cast<size_t>(fill), '=');
      if (fill < kWidth) bar += '>';
      bar.resize(kWidth, ' ');
      std::snprintf(buf, sizeof buf, "\r[%s] %zu/%zu files  %.1f files/s  ETA %s  %zu failed\x1b[K", bar.c_str(),
                    p.done, p.total, rate, Duration(eta).c_str(), p.failed);
    } else {
      std::snprintf(buf, sizeof buf, "progress: %zu/%zu files (%.0f%%), %.1f files/s, ETA %s, %zu failed\n", p.done,
                    p.total, fraction * 100, rate, Duration(eta).c_str(), p.failed);
    }
    std::fputs(buf, stderr);
    std::fflush(stderr);
  }

  void Finish() {
    if (tty_ && printed_) std::fputs("\r\x1b[K", stderr);
    std::fflush(stderr);
  }

 private:
  bool tty_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point last_print_{};
};

}  // namespace

void AddBatchOptions(CLI::App* convert, BatchArgs& args) {
  const char* group = "Folder conversion (IN is a folder)";
  convert->add_option("-j,--jobs", args.jobs, "Convert on N threads (default: every core)")
      ->check(CLI::Range(1u, 1024u))
      ->group(group);
  convert->add_option("--skeleton-map", args.skeleton_map, "Pair animations with skeletons: lines 'ANIM_GLOB = SKELETON_GLOB'")
      ->group(group);
  convert->add_option("--report", args.report, "Write a JSON report with one entry per file")->group(group);
  convert->add_flag("-q,--quiet", args.quiet, "No progress on stderr")->group(group);
  convert->add_flag("--by-extension", args.by_extension,
                    "Also convert files that only their extension ties to a format (failing when unreadable)")
      ->group(group);
}

bool IsBatchInput(const std::string& input) {
  std::error_code ec;
  return std::filesystem::is_directory(input, ec);
}

std::string BatchOnlyOptionsUsed(const BatchArgs& args) {
  if (!args.skeleton_map.empty()) return "--skeleton-map needs a folder as IN";
  if (!args.report.empty()) return "--report needs a folder as IN";
  if (args.by_extension) return "--by-extension needs a folder as IN";
  return {};
}

int RunBatchConvert(const std::string& input_dir, const std::string& output_dir, const std::string& to,
                    const BatchArgs& args, const BatchCommonArgs& common) {
  BatchConvertJob job;
  try {
    if (!common.format.empty()) {
      throw Error::General("--format applies to single files; a folder's files are detected one by one");
    }
    job.input_dir = input_dir;
    job.output_dir = output_dir;
    job.to = to.empty() ? "glb" : to;
    job.threads = args.jobs;
    job.skeleton = common.skeleton;
    job.clip = common.clip;
    job.options = common.options;
    job.accept_extension_only = args.by_extension;
    if (!args.skeleton_map.empty()) {
      const Bytes text = ReadFileBytes(args.skeleton_map);
      job.skeleton_map =
          ParseSkeletonMap(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()), args.skeleton_map);
    }
    job.Validate();
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }

  ProgressPrinter printer(isatty(STDERR_FILENO) != 0);
  if (!args.quiet) job.progress = [&printer](const BatchProgress& p) { printer.Update(p); };
  g_cancel.store(false);
  g_signal = 0;
  job.cancel = &g_cancel;

  BatchReport report;
  {
    SignalGuard guard;
    try {
      report = job.Run();
    } catch (const Error& e) {
      printer.Finish();
      std::fprintf(stderr, "%s\n", e.what());
      return 2;
    }
  }
  printer.Finish();

  const std::string summary = report.Summary();
  std::fwrite(summary.data(), 1, summary.size(), stdout);
  std::fflush(stdout);
  int status = report.failed ? 1 : 0;
  if (!args.report.empty()) {
    Value j = report.ToJson();
    j["input"] = input_dir;
    j["output"] = output_dir;
    j["to"] = job.to;
    const std::string text = DumpJson(j, 2) + "\n";
    try {
      WriteFileAtomic(args.report, ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    } catch (const Error& e) {
      std::fprintf(stderr, "%s\n", e.what());
      status = 1;
    }
  }
  if (g_signal != 0) {
    std::fprintf(stderr, "animkit: interrupted; %zu files not started\n", report.not_started);
    return 128 + static_cast<int>(g_signal);
  }
  return status;
}

}  // namespace animkit::cli
