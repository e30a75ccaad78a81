// Progress and signals of the folder verbs (folder_console.hpp).
#include "folder_console.hpp"

#include <animkit/core/error.hpp>

#include <cstdio>
#include <string>
#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

namespace animkit::cli {

namespace {

std::atomic<bool> g_cancel{false};
volatile std::sig_atomic_t g_signal = 0;

extern "C" void OnSignal(int sig) {
  g_signal = sig;
  g_cancel.store(true);
#ifdef _WIN32
  std::signal(sig, SIG_DFL);  // as SA_RESETHAND: a second Ctrl+C ends the program at once
#endif
}

bool StderrIsTerminal() {
#ifdef _WIN32
  return _isatty(_fileno(stderr)) != 0;
#else
  return isatty(STDERR_FILENO) != 0;
#endif
}

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

}  // namespace

SignalGuard::SignalGuard() {
  g_cancel.store(false);
  g_signal = 0;
#ifdef _WIN32
  old_int_ = std::signal(SIGINT, OnSignal);
  old_term_ = std::signal(SIGTERM, OnSignal);
#else
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
#endif
}

SignalGuard::~SignalGuard() {
#ifdef _WIN32
  std::signal(SIGINT, old_int_);
  std::signal(SIGTERM, old_term_);
#else
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
#endif
}

const std::atomic<bool>* CancelFlag() { return &g_cancel; }

int CaughtSignal() { return static_cast<int>(g_signal); }

void ProgressPrinter::Update(const BatchProgress& p) {
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

void ProgressPrinter::Finish() {
  if (tty_ && printed_) std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
}

bool RunFolderJob(bool quiet, const std::function<void(const ProgressFn&, const std::atomic<bool>*)>& run) {
  ProgressPrinter printer(StderrIsTerminal());
  ProgressFn progress;
  if (!quiet) progress = [&printer](const BatchProgress& p) { printer.Update(p); };
  const SignalGuard guard;
  try {
    run(progress, CancelFlag());
  } catch (const Error& e) {
    printer.Finish();
    std::fprintf(stderr, "%s\n", e.what());
    return false;
  }
  printer.Finish();
  return true;
}

int InterruptedStatus(size_t not_started) {
  if (g_signal == 0) return 0;
  std::fprintf(stderr, "animkit: interrupted; %zu files not started\n", not_started);
  return 128 + static_cast<int>(g_signal);
}

}  // namespace animkit::cli
