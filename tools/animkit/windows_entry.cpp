// animkit.exe's entry: Windows gives the command line as UTF-16; animkit takes every
// argument, path or not, as UTF-8 (docs/windows.md). stdout and stderr are binary, so
// that what the CLI prints is byte for byte what it prints on Linux (no "\r\n"), and a
// console shows UTF-8. stdout is written in large pieces.
#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <fcntl.h>
#include <io.h>

#include <cstdio>
#include <string>
#include <vector>

int RunCommandLine(int argc, char** argv);

namespace {

std::string Utf8Of(const wchar_t* text) {
  const int size = WideCharToMultiByte(CP_UTF8, 0, text, -1, nullptr, 0, nullptr, nullptr);
  if (size <= 1) return {};
  std::string utf8(static_cast<size_t>(size), '\0');
  WideCharToMultiByte(CP_UTF8, 0, text, -1, utf8.data(), size, nullptr, nullptr);
  utf8.pop_back();  // the terminating NUL
  return utf8;
}

}  // namespace

int wmain(int argc, wchar_t** wargv) {
  _setmode(_fileno(stdout), _O_BINARY);
  _setmode(_fileno(stderr), _O_BINARY);
  // The C runtime's 4 KB buffer makes `sample`'s 40 MB of JSON 10,000 writes, each a trip
  // through the system: 1 MB makes it 40.
  std::setvbuf(stdout, nullptr, _IOFBF, 1 << 20);
  SetConsoleOutputCP(CP_UTF8);
  std::vector<std::string> arguments;
  arguments.reserve(static_cast<size_t>(argc));
  for (int i = 0; i < argc; ++i) arguments.push_back(Utf8Of(wargv[i]));
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  return RunCommandLine(argc, argv.data());
}
#endif
