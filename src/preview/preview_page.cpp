// `animkit preview FILE`: one HTML page that carries everything it shows (docs/preview.md).
#include <animkit/core/error.hpp>
#include <animkit/formats/gltf.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/preview/preview.hpp>

#include "preview/preview_assets.hpp"
#include "preview/preview_html.hpp"

#include <algorithm>
#include <filesystem>
#include <string_view>

namespace animkit {

namespace {

// Header fields larger than this as JSON are cut to their plain values on the page
// (a big file's tables would otherwise outweigh its animation): `animkit info --json` has them all.
constexpr size_t kMaxFieldsJsonBytes = size_t{256} << 10;

std::string Base64(const Bytes& bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = uint32_t{bytes[i]} << 16 | uint32_t{bytes[i + 1]} << 8 | bytes[i + 2];
    for (int shift = 18; shift >= 0; shift -= 6) out += kDigits[(v >> shift) & 63];
  }
  if (const size_t rest = bytes.size() - i; rest > 0) {
    const uint32_t v = uint32_t{bytes[i]} << 16 | (rest == 2 ? uint32_t{bytes[i + 1]} << 8 : 0u);
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += rest == 2 ? kDigits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// The viewer's script: its parts (viewer/preview_*.js) in order, each without its heading
// comment (the column-0 comment lines up to the first blank line). page.html wraps them in
// one function, so they share its scope as one file would.
std::string ViewerScript() {
  namespace assets = preview_assets;
  std::string script;
  for (std::string_view part :
       {assets::kPreviewStateJs, assets::kPreviewSceneJs, assets::kPreviewPlaybackJs, assets::kPreviewPanelJs}) {
    while (part.rfind("//", 0) == 0) part.remove_prefix(std::min(part.find('\n'), part.size() - 1) + 1);
    if (part.rfind("\n", 0) == 0) part.remove_prefix(1);
    script += part;
  }
  return preview_html::InlineScript(script);
}

// info with its "fields" cut to their plain values when they are too big to carry.
Value PageInfo(Value info) {
  const Value& fields = info["fields"];
  if (!fields.is_object() || DumpJson(fields).size() <= kMaxFieldsJsonBytes) return info;
  Value plain = Value::object();
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    if (it.value().is_primitive()) plain[it.key()] = it.value();
  }
  info["fields"] = plain;
  info["fields_cut"] = "tables over " + std::to_string(kMaxFieldsJsonBytes >> 10) +
                       " KiB left out: `animkit info --json` lists them";
  return info;
}

}  // namespace

size_t PreviewPageSizeLimit(size_t glb_bytes) {
  return size_t{1500} * 1000 + glb_bytes / 5 * 7 + 7;  // 1.5 MB + 1.4 x glb, rounded up
}

std::string_view PreviewUpAxis(std::string_view format_id) {
  const FormatDescriptor* format = FindFormat(format_id);
  return format != nullptr ? format->up_axis : "+Y";  // the format declares it (FormatDescriptor::up_axis)
}

PreviewPage BuildPreviewPage(const LoadedFile& loaded, const PreviewRequest& request) {
  PreviewPage page;
  DecodedScene decoded = DecodeWithSkeleton(loaded, request.skeleton, request.options);
  page.skeleton = decoded.skeleton;
  page.skeleton_use = decoded.use;
  page.skeleton_warning = decoded.warning;
  // What the side panel shows: `info --json` of the file as decoded here, every clip.
  page.info = InfoValue(loaded, decoded);
  Scene& scene = decoded.scene;
  if (!request.clip.empty()) {
    const Clip only = RequireClip(scene, request.clip, loaded.path);
    scene.clips = {only};
  }
  Bytes glb;
  try {
    glb = ExportGltf(scene, GltfExportOptions{true, request.options.limits()});
  } catch (const Error& e) {
    throw e.InFile(loaded.path);
  }
  page.glb_bytes = glb.size();

  const std::string name = std::filesystem::path(loaded.path).filename().string();
  const Value data = {{"file", name},
                      {"format", loaded.format->id},
                      {"description", loaded.format->description},
                      {"up", PreviewUpAxis(loaded.format->id)},
                      {"clip", request.clip},
                      {"info", PageInfo(page.info)},
                      {"glb", Base64(glb)}};
  namespace assets = preview_assets;
  const std::string title = preview_html::Escape(name + " - animkit preview");
  const std::string json = preview_html::JsonBlock(data);
  const std::string three = preview_html::InlineScript(assets::kThreeJs);
  const std::string loader = preview_html::InlineScript(assets::kGltfLoaderJs);
  const std::string controls = preview_html::InlineScript(assets::kOrbitControlsJs);
  const std::string viewer = ViewerScript();
  page.html = preview_html::Fill(assets::kPageHtml, {{"TITLE", title},
                                                     {"STYLE", assets::kPreviewCss},
                                                     {"DATA", json},
                                                     {"THREE", three},
                                                     {"GLTF_LOADER", loader},
                                                     {"ORBIT_CONTROLS", controls},
                                                     {"VIEWER", viewer}});
  return page;
}

}  // namespace animkit
