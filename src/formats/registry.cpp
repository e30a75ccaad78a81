#include <animkit/formats/registry.hpp>
#include "formats/common/descriptors.hpp"

#include <algorithm>
#include <cctype>

namespace animkit {

const std::vector<const FormatDescriptor*>& Formats() {
  static const std::vector<const FormatDescriptor*> table = {
#define ANIMKIT_FORMAT(name) &name,
#include "format_list.inc"
#undef ANIMKIT_FORMAT
  };
  return table;
}

const FormatDescriptor* FindFormat(std::string_view id) {
  for (const FormatDescriptor* f : Formats())
    if (f->id == id) return f;
  return nullptr;
}

const FormatDescriptor& InterchangeFormat() { return kGltfFormat; }

std::string ExtensionOf(std::string_view path) {
  size_t slash = path.find_last_of("/\\");
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  std::string ext(name.substr(dot));
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

std::vector<const FormatDescriptor*> FormatsForExtension(std::string_view extension) {
  std::vector<const FormatDescriptor*> out;
  for (const FormatDescriptor* f : Formats())
    if (std::find(f->extensions.begin(), f->extensions.end(), extension) != f->extensions.end()) out.push_back(f);
  return out;
}

Detection Detect(ByteView data, std::string_view path) {
  Detection best;
  std::string ext = ExtensionOf(path);
  for (const FormatDescriptor* f : Formats()) {
    if (!f->probe) continue;
    int score = f->probe(data, ext);
    if (score > best.score) best = {f, score};
  }
  return best;
}

}  // namespace animkit
