// animkit_peak_rss CPU_SECONDS PROGRAM [ARGS...]: runs PROGRAM (output to /dev/null) with a
// CPU time limit and prints "STATUS PEAK_KB". A process forked from a big one starts with
// that one's resident pages as its peak, so the resource test measures through this small
// process instead of forking the test binary itself.
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: animkit_peak_rss CPU_SECONDS PROGRAM [ARGS...]\n");
    return 2;
  }
  const rlim_t cpu = static_cast<rlim_t>(std::strtoul(argv[1], nullptr, 10));
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    rlimit limit{cpu, cpu};
    setrlimit(RLIMIT_CPU, &limit);
    execv(argv[2], argv + 2);
    _exit(127);
  }
  rusage usage{};
  int status = 0;
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid) return 1;
  std::printf("%d %ld\n", status, usage.ru_maxrss);
  return 0;
}
