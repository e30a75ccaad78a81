// The terminal side of the folder verbs (`convert DIR`, `preview DIR`): progress on
// stderr and SIGINT/SIGTERM cancelling the run.
#pragma once

#include <animkit/pipeline/folder_job.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <functional>

namespace animkit::cli {

// While alive, SIGINT/SIGTERM stop the scheduling of further files (CancelFlag()); the
// handler is reset by the first signal, so a second one ends the program at once.
class SignalGuard {
 public:
  SignalGuard();  // clears the flag and the caught signal
  ~SignalGuard();
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

 private:
#ifdef _WIN32
  void (*old_int_)(int) = nullptr;
  void (*old_term_)(int) = nullptr;
#else
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
#endif
};
// The flag a folder job's cancel points to.
const std::atomic<bool>* CancelFlag();
// The signal that set it, 0 for none.
int CaughtSignal();

// Progress on stderr: a bar redrawn in place on a terminal, a plain line every
// few seconds otherwise (and always one at the end).
class ProgressPrinter {
 public:
  explicit ProgressPrinter(bool tty) : tty_(tty) {}
  void Update(const BatchProgress& p);
  void Finish();

 private:
  bool tty_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point last_print_{};
};

using ProgressFn = std::function<void(const BatchProgress&)>;
// Runs a folder job: run(progress, cancel) with progress on stderr unless quiet and
// SIGINT/SIGTERM cancelling it. An Error it throws is printed: false.
bool RunFolderJob(bool quiet, const std::function<void(const ProgressFn&, const std::atomic<bool>*)>& run);
// The same for a job (or request) with progress and cancel members: they are set, then run().
template <class Job>
bool RunFolderJob(bool quiet, Job& job, const std::function<void()>& run) {
  return RunFolderJob(quiet, [&](const ProgressFn& progress, const std::atomic<bool>* cancel) {
    job.progress = progress;
    job.cancel = cancel;
    run();
  });
}
// After a run a signal cancelled: says so on stderr and gives 128 + the signal; else 0.
int InterruptedStatus(size_t not_started);

}  // namespace animkit::cli
