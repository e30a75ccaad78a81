// `animkit preview DIR -o SITE`: a page per recognised file and the gallery, index.html.
#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/preview/preview.hpp>

#include "preview/preview_assets.hpp"
#include "preview/preview_html.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

namespace animkit {

namespace {

namespace fs = std::filesystem;

ByteView View(const std::string& text) { return {reinterpret_cast<const uint8_t*>(text.data()), text.size()}; }

std::string Count(size_t n) { return std::to_string(n); }

std::string SizeText(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f KB", static_cast<double>(bytes) / 1000.0);
  return buf;
}

// One row of the gallery's table; data-* attributes carry the counts for the filter and the tests.
std::string GalleryRow(const PreviewSiteEntry& e) {
  using preview_html::Escape;
  std::string row = "<tr data-path=\"" + Escape(e.path) + "\" data-format=\"" + Escape(e.format) + "\" data-page=\"" +
                    Escape(e.page) + "\" data-skeleton=\"" + Escape(e.skeleton) + "\" data-clips=\"" + Count(e.clips) +
                    "\" data-frames=\"" + Count(e.frames) + "\" data-joints=\"" + Count(e.joints) + "\" data-events=\"" +
                    Count(e.events) + "\"" + (e.error.empty() ? "" : " class=\"failed\"") + ">";
  row += e.page.empty() ? "<td class=\"name\">" + Escape(e.path) + "</td>"
                        : "<td class=\"name\"><a href=\"" + Escape(e.page) + "\">" + Escape(e.path) + "</a></td>";
  row += "<td>" + Escape(e.format) + "</td>";
  if (!e.error.empty()) return row + "<td colspan=\"6\" class=\"error\">" + Escape(e.error) + "</td></tr>\n";
  row += "<td>" + (e.skeleton.empty() ? std::string("&ndash;") : Escape(e.skeleton)) + "</td>";
  for (const size_t n : {e.clips, e.frames, e.joints, e.events}) row += "<td class=\"n\">" + Count(n) + "</td>";
  return row + "<td class=\"n\">" + SizeText(e.page_bytes) + "</td></tr>\n";
}

}  // namespace

size_t PreviewSite::failed() const {
  return static_cast<size_t>(std::count_if(files.begin(), files.end(), [](const PreviewSiteEntry& e) { return !e.error.empty(); }));
}

PreviewSite WritePreviewSite(const PreviewSiteRequest& request) {
  std::error_code ec;
  if (request.input_dir.empty() || !fs::is_directory(request.input_dir, ec)) {
    throw Error::General("not a folder").InFile(request.input_dir);
  }
  if (request.output_dir.empty()) throw Error::General("no output folder given (-o SITE)");
  if (fs::exists(request.output_dir, ec) && !fs::is_directory(request.output_dir, ec)) {
    throw Error::General("exists and is not a folder").InFile(request.output_dir);
  }
  const fs::path in_root(request.input_dir), out_root(request.output_dir);
  const fs::path in_canon = fs::weakly_canonical(in_root, ec), out_canon = fs::weakly_canonical(out_root, ec);
  if (in_canon == out_canon) throw Error::General("the output folder must differ from the input folder").InFile(request.output_dir);
  for (const SkeletonMapRule& r : request.skeleton_map) {
    CheckGlob(r.animation);
    CheckGlob(r.skeleton);
  }
  const fs::path rel_out = out_canon.lexically_relative(in_canon);
  const bool out_inside = !rel_out.empty() && *rel_out.begin() != "..";
  const std::vector<std::string> files = ListFolder(in_root.string(), out_inside ? out_root.string() : "");
  const SkeletonMapper mapper(request.skeleton_map, files);
  std::set<std::string> input_set;  // canonical: a page must never land on an input
  for (const std::string& rel : files) input_set.insert(fs::weakly_canonical(in_root / rel, ec).string());

  // Each skeleton file is decoded once, by the first file that needs it.
  std::map<std::string, std::pair<std::optional<Scene>, std::string>> skeletons;  // path -> scene or error
  auto shared_skeleton = [&](const std::string& path) -> const Scene& {
    auto [it, inserted] = skeletons.try_emplace(path);
    if (inserted) {
      try {
        it->second.first = LoadReference(path, request.options);
      } catch (const Error& e) {
        it->second.second = e.what();
      }
    }
    if (!it->second.first) throw Error::General(it->second.second);
    return *it->second.first;
  };

  PreviewSite site;
  for (const std::string& rel : files) {
    const std::string in_path = (in_root / rel).string();
    PreviewSiteEntry entry;
    entry.path = rel;
    try {
      const Bytes bytes = ReadFileBytes(in_path);
      const Detection detected = Detect(bytes, in_path);
      if (!detected.format || detected.score <= kProbeExtension) {
        ++site.unrecognised;
        continue;
      }
      entry.format = std::string(detected.format->id);
      const LoadedFile loaded = LoadBytes(bytes, in_path, detected.format->id, request.options);
      std::string skeleton_path;
      if (const std::optional<std::string> mapped = mapper.SkeletonFor(rel)) {
        skeleton_path = (in_root / *mapped).string();
      } else {
        skeleton_path = ResolveSkeleton(loaded, request.skeleton).file.path;
      }
      PreviewRequest page_request{SkeletonSource::None(), "", request.options};
      if (!skeleton_path.empty()) {
        page_request.skeleton = SkeletonSource::Decoded(shared_skeleton(skeleton_path), skeleton_path);
        entry.skeleton = fs::path(skeleton_path).lexically_relative(in_root).generic_string();
      }
      const PreviewPage page = BuildPreviewPage(loaded, page_request);
      entry.clips = page.info["clips"].size();
      for (const Value& clip : page.info["clips"]) entry.frames += clip["frames"].get<size_t>();
      entry.joints = page.info["joints"].size();
      entry.events = page.info["events"].size();
      entry.glb_bytes = page.glb_bytes;
      entry.page_bytes = page.html.size();
      entry.page = rel + ".html";
      const fs::path page_path = out_root / entry.page;
      fs::create_directories(page_path.parent_path(), ec);
      if (ec) throw Error::General("cannot create the folder: " + ec.message()).InFile(page_path.parent_path().string());
      if (input_set.count(fs::weakly_canonical(page_path, ec).string())) {
        throw Error::General("refusing to write over a file this command reads").InFile(page_path.string());
      }
      WriteFileAtomic(page_path.string(), View(page.html), {in_path, skeleton_path});
    } catch (const Error& e) {
      entry.page.clear();
      entry.error = e.InFile(in_path).what();
    }
    site.files.push_back(std::move(entry));
  }

  std::string rows;
  for (const PreviewSiteEntry& e : site.files) rows += GalleryRow(e);
  const std::string folder = in_canon.filename().string();
  const std::string summary = std::to_string(site.files.size()) + " files recognised, " +
                              std::to_string(site.files.size() - site.failed()) + " with a page, " +
                              std::to_string(site.failed()) + " damaged; " + std::to_string(site.unrecognised) +
                              " not recognised (not listed)";
  namespace assets = preview_assets;
  const std::string title = preview_html::Escape(folder + " - animkit preview");
  const std::string summary_html = preview_html::Escape(summary);
  const std::string script = preview_html::InlineScript(assets::kGalleryJs);
  const std::string html = preview_html::Fill(
      assets::kGalleryHtml,
      {{"TITLE", title}, {"STYLE", assets::kPreviewCss}, {"SUMMARY", summary_html}, {"ROWS", rows}, {"SCRIPT", script}});
  site.index = (out_root / "index.html").string();
  fs::create_directories(out_root, ec);
  if (ec) throw Error::General("cannot create the folder: " + ec.message()).InFile(request.output_dir);
  std::vector<std::string> inputs;
  inputs.reserve(files.size());
  for (const std::string& rel : files) inputs.push_back((in_root / rel).string());
  WriteFileAtomic(site.index, View(html), inputs);
  return site;
}

}  // namespace animkit
