#include "gltf/gltf_internal.hpp"

#include <animkit/error.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>

namespace animkit::gltf {

bool IsValueRepresentable(const nlohmann::json& json) {
  switch (json.type()) {
    case nlohmann::json::value_t::object:
      if (json.empty()) return false;
      for (const auto& item : json.items())
        if (!IsValueRepresentable(item.value())) return false;
      return true;
    case nlohmann::json::value_t::array:
      if (json.empty()) return false;
      for (const auto& item : json)
        if (!IsValueRepresentable(item)) return false;
      return true;
    case nlohmann::json::value_t::number_integer: {
      // Larger integers go through double, exact up to 2^53.
      int64_t v = json.get<int64_t>();
      return v >= -(int64_t{1} << 53) && v <= (int64_t{1} << 53);
    }
    case nlohmann::json::value_t::number_unsigned:
      return json.get<uint64_t>() <= (uint64_t{1} << 53);
    case nlohmann::json::value_t::number_float:
      return std::isfinite(json.get<double>());
    case nlohmann::json::value_t::string:
    case nlohmann::json::value_t::boolean:
      return true;
    default:
      return false;
  }
}

tinygltf::Value ToValue(const nlohmann::json& json) {
  switch (json.type()) {
    case nlohmann::json::value_t::object: {
      tinygltf::Value::Object object;
      for (const auto& item : json.items()) object.emplace(item.key(), ToValue(item.value()));
      return tinygltf::Value(std::move(object));
    }
    case nlohmann::json::value_t::array: {
      tinygltf::Value::Array array;
      for (const auto& item : json) array.push_back(ToValue(item));
      return tinygltf::Value(std::move(array));
    }
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned: {
      double v = json.get<double>();
      if (v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max())
        return tinygltf::Value(static_cast<int>(json.get<int64_t>()));
      return tinygltf::Value(v);
    }
    case nlohmann::json::value_t::number_float:
      return tinygltf::Value(json.get<double>());
    case nlohmann::json::value_t::string:
      return tinygltf::Value(json.get<std::string>());
    case nlohmann::json::value_t::boolean:
      return tinygltf::Value(json.get<bool>());
    default:
      return {};
  }
}

int JsonDepth(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

bool IsGlb(ByteView data) { return data.size() >= 4 && std::memcmp(data.data(), "glTF", 4) == 0; }

namespace {

// External files are only read from the glTF's own directory, never from the
// working directory that tinygltf also searches.
struct FsContext {
  std::string base_dir;
};

bool FileExists(const std::string& path, void* user) {
  const auto* context = static_cast<const FsContext*>(user);
  if (context->base_dir.empty() || path.rfind(context->base_dir + "/", 0) != 0) return false;
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

std::string ExpandFilePath(const std::string& path, void*) { return path; }

bool ReadWholeFile(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user) {
  if (!FileExists(path, user)) {
    if (err) *err += "cannot open " + path;
    return false;
  }
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  constexpr uintmax_t kMaxExternal = uintmax_t{1} << 31;
  if (ec || size > kMaxExternal) {
    if (err) *err += "cannot read " + path;
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  out->resize(static_cast<size_t>(size));
  if (!in.read(reinterpret_cast<char*>(out->data()), static_cast<std::streamsize>(size))) {
    if (err) *err += "cannot read " + path;
    return false;
  }
  return true;
}

bool RefuseWrite(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
  if (err) *err += "writing files is disabled";
  return false;
}

// Images are not needed for animation; never decode them.
bool SkipImage(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) {
  return true;
}

uint32_t ReadU32(ByteView data, size_t offset) {
  return uint32_t(data[offset]) | uint32_t(data[offset + 1]) << 8 | uint32_t(data[offset + 2]) << 16 |
         uint32_t(data[offset + 3]) << 24;
}

// The GLB framing, checked before tinygltf sees it (tinygltf trusts the BIN
// chunk length by 8 bytes). Returns the JSON chunk and the length to parse.
struct GlbFrame {
  std::string_view json;
  size_t length = 0;
};

GlbFrame CheckGlb(ByteView data) {
  if (data.size() < 20)
    throw Error::AtOffset(0, "a GLB header and JSON chunk header need 20 bytes, file has " + std::to_string(data.size()));
  uint32_t version = ReadU32(data, 4), length = ReadU32(data, 8);
  if (version != 2) throw Error::AtOffset(4, "GLB version 2 expected, found " + std::to_string(version));
  if (length > data.size())
    throw Error::AtOffset(8, "GLB length " + Hex(length) + " runs past the end of the file (" + Hex(data.size()) + " bytes)");
  if (length < 20) throw Error::AtOffset(8, "GLB length " + Hex(length) + " is shorter than its headers");
  uint64_t json_length = ReadU32(data, 12);
  if (ReadU32(data, 16) != 0x4E4F534Au) throw Error::AtOffset(16, "the first GLB chunk must be JSON");
  uint64_t json_end = 20 + json_length;
  if (json_end > length)
    throw Error::AtOffset(12, "GLB JSON chunk (" + Hex(json_length) + " bytes) runs past the GLB length " + Hex(length));
  if (json_end < length) {
    if (json_end + 8 > length) throw Error::AtOffset(json_end, "GLB chunk header needs 8 bytes");
    uint64_t bin_length = ReadU32(data, json_end);
    if (ReadU32(data, json_end + 4) != 0x004E4942u) throw Error::AtOffset(json_end + 4, "the second GLB chunk must be BIN");
    if (json_end + 8 + bin_length > length)
      throw Error::AtOffset(json_end, "GLB BIN chunk (" + Hex(bin_length) + " bytes) runs past the GLB length " + Hex(length));
  }
  return {std::string_view(reinterpret_cast<const char*>(data.data()) + 20, json_length), length};
}

std::string Shorten(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char& c : text)
    if (c == '\n') c = ' ';
  constexpr size_t kMax = 400;  // tinygltf quotes whole data: URIs
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

void CheckDepth(std::string_view json) {
  if (JsonDepth(json, kMaxJsonDepth) > kMaxJsonDepth)
    throw Error::General("glTF JSON is nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
}

}  // namespace

tinygltf::Model LoadModel(ByteView data, const std::string& path) {
  if (data.size() > std::numeric_limits<uint32_t>::max()) throw Error::General("glTF files over 4 GiB are not supported");
  FsContext fs_context;
  if (!path.empty()) {
    std::filesystem::path parent = std::filesystem::path(path).parent_path();
    fs_context.base_dir = parent.empty() ? "." : parent.string();
  }
  tinygltf::TinyGLTF loader;
  loader.SetStoreOriginalJSONForExtrasAndExtensions(true);
  loader.SetImageLoader(&SkipImage, nullptr);
  loader.SetFsCallbacks({&FileExists, &ExpandFilePath, &ReadWholeFile, &RefuseWrite, &fs_context});

  tinygltf::Model model;
  std::string err, warn;
  bool ok = false;
  try {
    if (IsGlb(data)) {
      GlbFrame frame = CheckGlb(data);
      CheckDepth(frame.json);
      ok = loader.LoadBinaryFromMemory(&model, &err, &warn, data.data(), static_cast<unsigned>(frame.length),
                                       fs_context.base_dir);
    } else {
      std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
      CheckDepth(text);
      ok = loader.LoadASCIIFromString(&model, &err, &warn, text.data(), static_cast<unsigned>(text.size()),
                                      fs_context.base_dir);
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error::General(std::string("glTF could not be parsed: ") + e.what());
  }
  if (!ok) {
    std::string detail = Shorten(err.empty() ? "unknown tinygltf error" : err);
    std::string message = "glTF could not be parsed: " + detail;
    // JSON syntax errors carry a place in nlohmann's message; keep it as one.
    std::smatch where;
    static const std::regex kLineColumn(R"(at line (\d{1,9}), column (\d{1,9}))");
    if (std::regex_search(detail, where, kLineColumn))  // short text: std::regex recurses
      throw Error::AtLine(std::stoi(where[1]), std::stoi(where[2]), message);
    throw Error::General(message);
  }
  return model;
}

}  // namespace animkit::gltf
