// `animkit preview FILE`: one HTML page that carries everything it shows (docs/preview.md).
#include <animkit/core/error.hpp>
#include <animkit/formats/gltf.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/info.hpp>
#include <animkit/pipeline/rate_text.hpp>
#include <animkit/preview/preview.hpp>
#include <animkit/io/path.hpp>

#include "preview/preview_assets.hpp"
#include "preview/preview_encode.hpp"
#include "preview/preview_html.hpp"

#include <algorithm>
#include <filesystem>
#include <string_view>

namespace animkit {

namespace {

// Header fields larger than this as JSON are cut to their plain values on the page
// (a big file's tables would otherwise outweigh its animation): `animkit info --json` has them all.
constexpr size_t kMaxFieldsJsonBytes = size_t{256} << 10;

// The viewer's script: its parts (viewer/preview_*.js) in order, each without its heading
// comment (the column-0 comment lines up to the first blank line), in one function, so
// that they share its scope as one file would.
std::string ViewerScript() {
  namespace assets = preview_assets;
  std::string script =
      "// The preview page's viewer: loads the page's glb with three.js's GLTFLoader, plays its\n"
      "// clips, draws the skeleton, and exposes window.animkitPreview for the tests\n"
      "// (docs/preview.md). Classic script: three.js is the global THREE.\n"
      "(function () {\n  'use strict';\n\n";
  for (std::string_view part :
       {assets::kPreviewStateJs, assets::kPreviewSceneJs, assets::kPreviewPlaybackJs, assets::kPreviewBesideJs,
        assets::kPreviewPanelJs}) {
    while (part.rfind("//", 0) == 0) part.remove_prefix(std::min(part.find('\n'), part.size() - 1) + 1);
    if (part.rfind("\n", 0) == 0) part.remove_prefix(1);
    script += part;
  }
  return script + "})();\n";
}

// info with its warnings folded as the CLI prints them (one line per kind and joint), each
// clip's rate as text too, and its "fields" cut to their plain values when they are too big to carry.
Value PageInfo(Value info) {
  if (info.contains("warnings") && info["warnings"].is_array()) {
    std::vector<std::string> texts;
    Value others = Value::array();
    for (const Value& w : info["warnings"]) {
      if (w.is_string()) texts.push_back(w.get<std::string>());
      else others.push_back(w);
    }
    Value folded = Value::array();
    for (std::string& w : FoldWarnings(texts)) folded.push_back(std::move(w));
    for (const Value& w : others) folded.push_back(w);
    info["warnings"] = std::move(folded);
  }
  // The rate as people read it ("48.89"); "rate" stays the number the file gives.
  if (info.contains("clips") && info["clips"].is_array())
    for (Value& clip : info["clips"])
      if (clip.is_object() && clip.contains("rate") && clip["rate"].is_number()) clip["rate_text"] = RateText(clip["rate"].get<double>());
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


// The page's <style> and <script> elements: inline, or referring to the shared assets at
// `assets` (a site's folder, relative to the page).
std::string PageAssets(std::string_view assets, std::string& style) {
  namespace assets_src = preview_assets;
  if (assets.empty()) {
    style = "<style>\n" + std::string(assets_src::kPreviewCss) + "</style>";
    std::string scripts;
    for (const std::string_view source : {assets_src::kThreeJs, assets_src::kGltfLoaderJs, assets_src::kOrbitControlsJs}) {
      scripts += "<script>\n" + preview_html::InlineScript(source) + "\n</script>\n";
    }
    return scripts + "<script>\n" + preview_html::InlineScript(ViewerScript()) + "</script>";
  }
  const std::string prefix = preview_html::Escape(assets);
  style = "<link rel=\"stylesheet\" href=\"" + prefix + "preview.css\">";
  std::string scripts;
  for (const PreviewAsset& asset : PreviewSharedAssets()) {
    if (asset.name.ends_with(".js")) scripts += "<script src=\"" + prefix + asset.name + "\"></script>\n";
  }
  return scripts;
}

std::string PageHtml(const std::string& name, const Value& data, const std::string& info, const std::string& glb,
                     const std::string& beside_glb, std::string_view assets) {
  std::string style;
  const std::string scripts = PageAssets(assets, style);
  // A page of a site may load the site's assets (file: URLs beside it), nothing else.
  const std::string sources = assets.empty() ? "" : " 'self'";
  const std::string title = preview_html::Escape(name + " - animkit preview");
  const std::string json = preview_html::JsonBlock(data);
  return preview_html::Fill(preview_assets::kPageHtml, {{"TITLE", title},
                                                        {"SOURCES", sources},
                                                        {"STYLE", style},
                                                        {"DATA", json},
                                                        {"INFO", info},
                                                        {"GLB", glb},
                                                        {"BESIDE", beside_glb},
                                                        {"SCRIPTS", scripts}});
}

}  // namespace

std::vector<PreviewAsset> PreviewSharedAssets() {
  namespace assets = preview_assets;
  return {{"three.min.js", std::string(assets::kThreeJs)},
          {"GLTFLoader.js", std::string(assets::kGltfLoaderJs)},
          {"OrbitControls.js", std::string(assets::kOrbitControlsJs)},
          {"viewer.js", ViewerScript()},
          {"preview.css", std::string(assets::kPreviewCss)}};
}

size_t PreviewPageSizeLimit(size_t glb_bytes) {
  return size_t{1500} * 1000 + glb_bytes / 5 * 7 + 7;  // 1.5 MB + 1.4 x glb, rounded up
}

std::string_view PreviewUpAxis(std::string_view format_id) {
  const FormatDescriptor* format = FindFormat(format_id);
  return format != nullptr ? format->up_axis : "+Y";  // the format declares it (FormatDescriptor::up_axis)
}

namespace {

// The character a retarget page shows beside the file's: the target with the clips on it.
struct PageBeside {
  const Scene* scene = nullptr;
  std::string file;  // its path
  const FormatDescriptor* format = nullptr;
};

Bytes PageGlb(const Scene& scene, const Options& options, const std::string& path) {
  try {
    return ExportGltf(scene, GltfExportOptions{true, options.limits()});
  } catch (const Error& e) {
    throw e.InFile(path);
  }
}

// The page of a file as decoded (DecodeWithSkeleton), with a second character when beside is given.
PreviewPage PageOf(const LoadedFile& loaded, DecodedScene decoded, const PreviewRequest& request, const PageBeside* beside) {
  PreviewPage page;
  page.skeleton = decoded.skeleton;
  page.skeleton_use = decoded.use;
  page.skeleton_warning = decoded.warning;
  // What the side panel shows: `info --json` of the file as decoded here, every clip.
  page.info = InfoValue(loaded, decoded);
  Scene& scene = decoded.scene;
  Value clip_index;  // with --clip: the index in info's clips of the one clip the glb carries
  if (!request.clip.empty()) {
    const Clip& only = RequireClip(scene, request.clip, loaded.path);
    clip_index = size_t(&only - scene.clips.data());
    Clip kept = only;
    scene.clips = {std::move(kept)};
  }
  const Bytes glb = PageGlb(scene, request.options, loaded.path);
  page.glb_bytes = glb.size();

  const std::string name = TextOf(PathOf(loaded.path).filename());
  Value data = {{"file", name},
                      {"format", loaded.format->id},
                      {"description", loaded.format->description},
                      {"up", PreviewUpAxis(loaded.format->id)},
                      {"clip", request.clip},
                      {"clip_index", clip_index},
                      {"glb_bytes", glb.size()}};
  // The info and the glb, gzipped, as Text7; the page reads as many bytes as data says.
  const std::string info_json = DumpJson(PageInfo(page.info));
  const Bytes info_gz = preview_encode::Gzip(ByteView(reinterpret_cast<const uint8_t*>(info_json.data()), info_json.size()));
  const Bytes glb_gz = preview_encode::Gzip(glb);
  data["info_gzip_bytes"] = info_gz.size();
  data["glb_gzip_bytes"] = glb_gz.size();
  std::string beside_text;
  if (beside) {
    const Bytes beside_glb = PageGlb(*beside->scene, request.options, beside->file);
    const Bytes beside_gz = preview_encode::Gzip(beside_glb);
    page.glb_bytes += beside_glb.size();
    data["beside"] = {{"file", TextOf(PathOf(beside->file).filename())},
                      {"format", beside->format ? beside->format->id : std::string_view("gltf")},
                      {"up", PreviewUpAxis(beside->format ? beside->format->id : "gltf")},
                      {"glb_bytes", beside_glb.size()},
                      {"glb_gzip_bytes", beside_gz.size()}};
    beside_text = preview_encode::Text7(beside_gz);
  }
  page.html = PageHtml(name, data, preview_encode::Text7(info_gz), preview_encode::Text7(glb_gz), beside_text, request.assets);
  return page;
}

}  // namespace

PreviewPage BuildPreviewPage(const LoadedFile& loaded, const PreviewRequest& request) {
  RequireOneScene(loaded);
  return PageOf(loaded, DecodeWithSkeleton(loaded, request.skeleton, request.options), request, nullptr);
}

std::string RetargetPreviewPage(const RetargetPageInput& input) {
  if (!input.source || !input.source_decoded || !input.retargeted)
    throw Error::General("retarget page: a source, its decoded scene and the retargeted target are needed");
  PreviewRequest request;
  request.options = input.options;
  const PageBeside beside{input.retargeted, input.target, input.target_format};
  return PageOf(*input.source, *input.source_decoded, request, &beside).html;
}

}  // namespace animkit
