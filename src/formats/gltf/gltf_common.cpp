#include "formats/gltf/gltf_internal.hpp"

#include <animkit/core/error.hpp>
#include <animkit/core/format.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/path.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <regex>

namespace animkit::gltf {

std::vector<double> UpTurn(const Scene& scene) {
  const FormatDescriptor* source = FindFormat(scene.source.format);
  if (!source || source->up_axis != "+Z") return {};
  const double h = std::sqrt(0.5);
  return {-h, 0.0, 0.0, h};  // -90 degrees about X: +Z becomes +Y
}

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

std::string ValidUtf8(const std::string& s) {
  return nlohmann::json::parse(DumpJson(Value(s))).get<std::string>();
}

void MakeNamesValidUtf8(tinygltf::Model& model) {
  auto fix = [](auto& items) {
    for (auto& item : items) item.name = ValidUtf8(item.name);
  };
  fix(model.nodes), fix(model.meshes), fix(model.animations), fix(model.skins), fix(model.cameras);
  fix(model.materials), fix(model.scenes), fix(model.accessors), fix(model.bufferViews), fix(model.buffers);
  fix(model.images), fix(model.textures), fix(model.samplers);
}

tinygltf::Value ToValue(const nlohmann::json& json) {
  switch (json.type()) {
    case nlohmann::json::value_t::object: {
      tinygltf::Value::Object object;
      for (const auto& item : json.items()) object.emplace(ValidUtf8(item.key()), ToValue(item.value()));
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
      return tinygltf::Value(ValidUtf8(json.get<std::string>()));
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

// External files: every buffer URI is resolved and read here, before tinygltf
// runs (ResolveExternal); tinygltf's file callbacks then only see those bytes,
// under the name it asks for, and nothing else exists for it.
struct FsContext {
  std::map<std::string, Bytes> files;
};

bool FileExists(const std::string& path, void* user) {
  return static_cast<const FsContext*>(user)->files.count(path) != 0;
}

std::string ExpandFilePath(const std::string& path, void*) { return path; }

bool ReadWholeFile(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user) {
  const auto* context = static_cast<const FsContext*>(user);
  auto it = context->files.find(path);
  if (it == context->files.end()) {
    if (err) *err += "not an allowed external file";
    return false;
  }
  out->assign(it->second.begin(), it->second.end());
  return true;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decoding; tinygltf also turns '+' into a space (plus_is_space), and its
// file names are what the callbacks above are asked for. nullopt when malformed.
std::optional<std::string> PercentDecode(std::string_view uri, bool plus_is_space) {
  std::string out;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%') {
      if (i + 2 >= uri.size()) return std::nullopt;
      const int hi = HexDigit(uri[i + 1]), lo = HexDigit(uri[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += plus_is_space && uri[i] == '+' ? ' ' : uri[i];
    }
  }
  return out;
}

bool HasScheme(std::string_view uri) {
  size_t i = 0;
  if (uri.empty() || !std::isalpha(static_cast<unsigned char>(uri[0]))) return false;
  while (i < uri.size() && (std::isalnum(static_cast<unsigned char>(uri[i])) || uri[i] == '+' || uri[i] == '-' || uri[i] == '.')) ++i;
  return i < uri.size() && uri[i] == ':';
}

bool IsDataUri(std::string_view uri) { return uri.size() >= 5 && uri.substr(0, 5) == "data:"; }

// The file a relative URI names inside base_dir, after percent-decoding,
// normalising and resolving symbolic links. The error names the URI as written
// (what) and never the path it resolves to.
std::filesystem::path ResolveUri(const std::string& uri, const std::string& base_dir, const std::string& what) {
  namespace fs = std::filesystem;
  auto refuse = [&](const std::string& why) -> Error {
    return Error::General(what + ": the URI '" + uri + "' " + why);
  };
  if (HasScheme(uri)) throw refuse("has a scheme; only data: URIs and paths inside the glTF's folder are read");
  const std::optional<std::string> decoded = PercentDecode(uri, false);
  if (!decoded) throw refuse("has a malformed percent-encoding");
  if (decoded->empty() || decoded->find('\0') != std::string::npos) throw refuse("is not a file name");
  if (decoded->front() == '/' || uri.rfind("//", 0) == 0) throw refuse("is absolute; only paths inside the glTF's folder are read");
  if (base_dir.empty()) throw refuse("names an external file, and the glTF was not read from a file");
  const fs::path relative = PathOf(*decoded).lexically_normal();
  if (relative.empty() || *relative.begin() == "..") throw refuse("leads outside the glTF's folder");
  std::error_code ec;
  const fs::path base = fs::canonical(PathOf(base_dir), ec);
  if (ec) throw refuse("cannot be read");
  const fs::path target = fs::weakly_canonical(base / relative, ec);
  if (ec) throw refuse("cannot be read");
  const fs::path inside = target.lexically_relative(base);
  if (inside.empty() || *inside.begin() == ".." || inside.is_absolute()) throw refuse("leads outside the glTF's folder");
  return target;
}

// Every external buffer and image URI of the glTF JSON checked, and every
// external buffer read (its declared byteLength, within max-buffer-bytes) into
// context. JSON tinygltf will reject anyway is left to it.
void ResolveExternal(std::string_view json_text, const std::string& base_dir, const Limits& limits,
                     FsContext& context) {
  namespace fs = std::filesystem;
  const nlohmann::json doc = nlohmann::json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (!doc.is_object()) return;
  auto list = [&](const char* key) {
    auto it = doc.find(key);
    return it != doc.end() && it->is_array() ? *it : nlohmann::json::array();
  };
  const nlohmann::json images = list("images");
  for (size_t i = 0; i < images.size(); ++i) {
    if (!images[i].is_object() || !images[i].contains("uri") || !images[i]["uri"].is_string()) continue;
    const std::string uri = images[i]["uri"].get<std::string>();
    if (!IsDataUri(uri)) ResolveUri(uri, base_dir, "image " + std::to_string(i));  // never read: animkit skips images
  }
  const nlohmann::json buffers = list("buffers");
  for (size_t i = 0; i < buffers.size(); ++i) {
    const nlohmann::json& b = buffers[i];
    if (!b.is_object() || !b.contains("uri") || !b["uri"].is_string()) continue;
    const std::string uri = b["uri"].get<std::string>();
    if (IsDataUri(uri)) continue;
    const std::string what = "buffer " + std::to_string(i);
    if (!b.contains("byteLength") || !b["byteLength"].is_number_unsigned()) {
      throw Error::General(what + ": an external buffer needs a whole byteLength");
    }
    const uint64_t length = b["byteLength"].get<uint64_t>();
    CheckLimit(length, &Limits::max_buffer_bytes, limits, what + ": the byteLength");
    const fs::path file = ResolveUri(uri, base_dir, what);
    std::error_code ec;
    const uintmax_t size = fs::is_regular_file(file, ec) ? fs::file_size(file, ec) : 0;
    if (ec || size == 0) throw Error::General(what + ": the URI '" + uri + "' cannot be read");
    if (size < length) throw Error::General(what + ": the file of the URI '" + uri + "' is shorter than its byteLength " + std::to_string(length));
    Bytes bytes(static_cast<size_t>(length));  // at most max-buffer-bytes, and the file holds them
    std::ifstream in(file, std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(length))) {
      throw Error::General(what + ": the URI '" + uri + "' cannot be read");
    }
    // The name tinygltf asks the callbacks for: base folder joined with its decoding.
    const std::string key = (base_dir.back() == '/' ? base_dir : base_dir + "/") + PercentDecode(uri, true).value_or(uri);
    context.files[key] = std::move(bytes);
  }
}

bool RefuseWrite(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
  if (err) *err += "writing files is disabled";
  return false;
}

// Images are not needed for animation; never decode them.
bool SkipImage(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) {
  return true;
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
  uint32_t version = le::Load32At(data, 4), length = le::Load32At(data, 8);
  if (version != 2) throw Error::AtOffset(4, "GLB version 2 expected, found " + std::to_string(version));
  if (length > data.size())
    throw Error::AtOffset(8, "GLB length " + Hex(length) + " runs past the end of the file (" + Hex(data.size()) + " bytes)");
  if (length < 20) throw Error::AtOffset(8, "GLB length " + Hex(length) + " is shorter than its headers");
  uint64_t json_length = le::Load32At(data, 12);
  if (le::Load32At(data, 16) != 0x4E4F534Au) throw Error::AtOffset(16, "the first GLB chunk must be JSON");
  uint64_t json_end = 20 + json_length;
  if (json_end > length)
    throw Error::AtOffset(12, "GLB JSON chunk (" + Hex(json_length) + " bytes) runs past the GLB length " + Hex(length));
  if (json_end < length) {
    if (json_end + 8 > length) throw Error::AtOffset(json_end, "GLB chunk header needs 8 bytes");
    uint64_t bin_length = le::Load32At(data, json_end);
    if (le::Load32At(data, json_end + 4) != 0x004E4942u) throw Error::AtOffset(json_end + 4, "the second GLB chunk must be BIN");
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

tinygltf::Model LoadModel(ByteView data, const std::string& path, const Limits& limits) {
  if (data.size() > std::numeric_limits<uint32_t>::max()) throw Error::General("glTF files over 4 GiB are not supported");
  FsContext fs_context;
  std::string base_dir;
  if (!path.empty()) {
    std::filesystem::path parent = PathOf(path).parent_path();
    base_dir = parent.empty() ? "." : TextOf(parent);
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
      ResolveExternal(frame.json, base_dir, limits, fs_context);
      ok = loader.LoadBinaryFromMemory(&model, &err, &warn, data.data(), static_cast<unsigned>(frame.length), base_dir);
    } else {
      std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
      CheckDepth(text);
      ResolveExternal(text, base_dir, limits, fs_context);
      ok = loader.LoadASCIIFromString(&model, &err, &warn, text.data(), static_cast<unsigned>(text.size()), base_dir);
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

tinygltf::Accessor FloatAccessor(const std::vector<float>& data, int type, int components, bool min_max) {
  tinygltf::Accessor a;
  a.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
  a.type = type;
  const size_t width = static_cast<size_t>(components);
  a.count = data.size() / width;
  if (min_max) {
    a.minValues.assign(width, std::numeric_limits<double>::infinity());
    a.maxValues.assign(width, -std::numeric_limits<double>::infinity());
    for (size_t i = 0; i < data.size(); ++i) {
      const size_t c = i % width;
      a.minValues[c] = std::min<double>(a.minValues[c], data[i]);
      a.maxValues[c] = std::max<double>(a.maxValues[c], data[i]);
    }
  }
  return a;
}

void AddSampledChannel(tinygltf::Animation& animation, int input, int output, const char* interpolation, int node,
                       const char* path) {
  tinygltf::AnimationSampler sampler;
  sampler.input = input;
  sampler.output = output;
  sampler.interpolation = interpolation;
  animation.samplers.push_back(std::move(sampler));
  tinygltf::AnimationChannel channel;
  channel.sampler = static_cast<int>(animation.samplers.size() - 1);
  channel.target_node = node;
  channel.target_path = path;
  animation.channels.push_back(std::move(channel));
}

}  // namespace animkit::gltf
