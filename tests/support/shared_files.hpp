// The real files and fixtures beside the checkout (../shared) that tests walk; every walk
// is empty, and its tests skip saying so, when they are absent.
#pragma once

#include <string>
#include <vector>

namespace animkit::test {

// ../shared/<relative>, or "" when absent.
std::string SharedPath(const std::string& relative);
// Every file under ../shared/<folder> (recursively) whose extension is one of extensions
// (lower case, with the dot; matched case-insensitively), relative to ../shared, sorted.
std::vector<std::string> SharedFiles(const std::vector<std::string>& folders, const std::vector<std::string>& extensions);
// A relative path as a test name (letters and digits, '_' for the rest).
std::string SharedTestName(const std::string& relative);

}  // namespace animkit::test
