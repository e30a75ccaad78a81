// The scanner behind tests/architecture/sizes_test.cpp: the functions of a C++, Python or
// JavaScript source and how many lines each spans. Simple on purpose: it reads the code
// this project writes, not every program the languages allow.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace animkit::source_scan {

struct Function {
  std::string name;
  int line = 0;    // 1-based: the line of the name (Python: of `def`)
  int length = 0;  // lines from `line` to the closing brace (Python: the block's last line), inclusive
};

enum class Language { Cpp, Python, JavaScript, CMake, None };

// From the file name: .cpp .hpp .h .cc .inc; .py; .js .mjs; CMakeLists.txt .cmake .cmake.in.
Language LanguageOf(std::string_view file_name);

// The text with comments, string and character literals (C++ raw strings too) and
// preprocessor lines blanked to spaces; line breaks stay, so offsets and lines still match.
std::string BlankCpp(std::string_view text);

// Functions at namespace and class scope, found by matching braces in BlankCpp's text:
// a `{` after a parameter list `(...)` opens a body; namespaces, classes, structs, unions
// and `extern "C"` are scopes searched on; anything else (enums, initializers, lambdas
// at namespace scope) is skipped. Lambdas and local classes count within their function.
std::vector<Function> CppFunctions(std::string_view text);

// `def` blocks, by indentation: from the `def` line to the last line before the next
// statement indented no deeper (strings, bracketed continuations and blank lines aside).
// A nested def counts in its outer one and on its own.
std::vector<Function> PythonFunctions(std::string_view text);

// The bodies of `function` (declarations and expressions) and of arrow functions with a
// braced body, matched by braces with comments, strings, template text and regular
// expressions blanked. A nested function counts in its outer one and on its own.
std::vector<Function> JsFunctions(std::string_view text);

}  // namespace animkit::source_scan
