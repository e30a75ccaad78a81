// `animkit preview DIR -o SITE`: a page per recognised file and the gallery, index.html;
// the folder job (FolderJob) with the page as its per-file action.
#include <animkit/core/error.hpp>
#include <animkit/io/io.hpp>
#include <animkit/preview/preview.hpp>
#include <animkit/io/path.hpp>

#include "preview/preview_assets.hpp"
#include "preview/preview_html.hpp"

#include <algorithm>
#include <set>
#include <filesystem>

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
  const std::string path = Escape(e.path);
  row += e.page.empty() ? "<td class=\"name\" title=\"" + path + "\">" + path + "</td>"
                        : "<td class=\"name\" title=\"" + path + "\"><a href=\"" + Escape(e.page) + "\">" + path + "</a></td>";
  row += "<td>" + Escape(e.format) + "</td>";
  if (!e.error.empty()) return row + "<td colspan=\"6\" class=\"error\">" + Escape(e.error) + "</td></tr>\n";
  row += e.skeleton.empty() ? std::string("<td class=\"skeleton\">&ndash;</td>")
                            : "<td class=\"skeleton\" title=\"" + Escape(e.skeleton) + "\">" + Escape(e.skeleton) + "</td>";
  for (const size_t n : {e.clips, e.frames, e.joints, e.events}) row += "<td class=\"n\">" + Count(n) + "</td>";
  return row + "<td class=\"n\">" + SizeText(e.page_bytes) + "</td></tr>\n";
}

// The joints of a file as the gallery counts them: its skeleton's, or, without one, every
// joint a clip animates (each name once).
size_t AnimatedJoints(const Value& info) {
  if (!info["joints"].empty()) return info["joints"].size();
  // A summary gives each clip's joint count (the most any clip animates), --full the names.
  std::set<std::string> names;
  size_t most = 0;
  for (const Value& clip : info["clips"]) {
    if (clip.contains("joint_count") && clip["joint_count"].is_number())
      most = std::max(most, clip["joint_count"].get<size_t>());
    if (clip.contains("joints") && clip["joints"].is_array())
      for (const Value& joint : clip["joints"]) names.insert(joint.get<std::string>());
  }
  return std::max(most, names.size());
}

// Writes the files the site's pages share into OUTPUT/animkit-preview/, each atomically.
void WriteSharedAssets(const PreviewSiteRequest& request) {
  const fs::path folder = PathOf(request.output_dir) / kPreviewAssetsFolder;
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw Error::General("cannot create the folder: " + ec.message()).InFile(TextOf(folder));
  for (const PreviewAsset& asset : PreviewSharedAssets()) {
    WriteFileAtomic(TextOf(folder / PathOf(asset.name)), View(asset.content), {});
  }
}

// Builds the page of each file the folder job hands over (BuildPreviewPage) and writes it;
// keeps what the gallery shows of it.
class PageAction final : public FolderAction {
 public:
  explicit PageAction(const PreviewSiteRequest& request) : request_(request) {}

  FolderOutputNaming OutputNaming() const override { return {".html", true}; }

  void Start(const std::vector<std::string>& files) override {
    files_ = files;
    entries_.assign(files.size(), {});
  }

  void Process(const FolderFile& file, BatchFileResult& result) override {
    PreviewSiteEntry& entry = entries_[file.index];
    const LoadedFile loaded = LoadBytes(file.bytes, file.input, file.format->id, file.options);
    PreviewRequest page_request{file.Skeleton(), "", file.options, AssetsUrl(file.output_path)};
    if (!file.skeleton_path.empty()) {
      entry.skeleton = TextOf(PathOf(file.skeleton_path).lexically_relative(PathOf(request_.input_dir)));
    }
    const PreviewPage page = BuildPreviewPage(loaded, page_request);
    if (page.skeleton.path.empty()) entry.skeleton.clear();  // a companion that did not fit
    result.skeleton_use = std::string(ToString(page.skeleton_use));
    if (!page.skeleton_warning.empty()) result.warnings.push_back(page.skeleton_warning);
    entry.clips = page.info["clips"].size();
    for (const Value& clip : page.info["clips"]) entry.frames += clip["frames"].get<size_t>();
    entry.joints = AnimatedJoints(page.info);
    entry.events = page.info["events"].size();
    entry.glb_bytes = page.glb_bytes;
    entry.page_bytes = page.html.size();
    file.CreateOutputFolder();
    WriteFileAtomic(file.output_path, View(page.html), {file.input, file.skeleton_path}, file.run_tag);
    result.clips = entry.clips;
    result.frames = entry.frames;
    result.joints = entry.joints;
    result.bytes_out = entry.page_bytes;
  }

  const std::vector<std::string>& files() const { return files_; }

  // The site's shared assets as a page at `page_path` refers to them: "../" per folder
  // between it and the site's root, then the assets' folder.
  std::string AssetsUrl(const std::string& page_path) const {
    const fs::path folder = PathOf(page_path).parent_path().lexically_relative(PathOf(request_.output_dir));
    std::string url;
    for (const fs::path& part : folder) {
      if (!part.empty() && part != ".") url += "../";
    }
    return url + std::string(kPreviewAssetsFolder) + "/";
  }

  // The gallery's entry of a file the job went through (converted or failed).
  PreviewSiteEntry EntryOf(const BatchFileResult& result) const {
    const size_t index = static_cast<size_t>(std::lower_bound(files_.begin(), files_.end(), result.path) - files_.begin());
    PreviewSiteEntry entry = index < entries_.size() ? entries_[index] : PreviewSiteEntry{};
    entry.path = result.path;
    entry.format = result.format;
    entry.page = result.status == BatchStatus::Converted ? result.output : std::string();
    entry.error = result.error;
    return entry;
  }

 private:
  const PreviewSiteRequest& request_;
  std::vector<std::string> files_;
  std::vector<PreviewSiteEntry> entries_;  // by index in files_
};

// Writes the gallery, OUTPUT/index.html, of the site's files; returns its path.
std::string WriteGallery(const PreviewSiteRequest& request, const PreviewSite& site, const std::vector<std::string>& files) {
  std::error_code ec;
  const fs::path in_root = PathOf(request.input_dir), out_root = PathOf(request.output_dir);
  const fs::path in_canon = fs::weakly_canonical(in_root, ec);
  std::string rows;
  for (const PreviewSiteEntry& e : site.files) rows += GalleryRow(e);
  const std::string folder = TextOf(in_canon.filename());
  std::string summary = std::to_string(site.files.size()) + " files recognised, " +
                              std::to_string(site.files.size() - site.failed()) + " with a page, " +
                              std::to_string(site.failed()) + " damaged; " + std::to_string(site.unrecognised) +
                              " not recognised (not listed)";
  if (site.too_large) summary += "; " + std::to_string(site.too_large) + " over the size limit (not listed)";
  if (site.cancelled) summary += "; cancelled: " + std::to_string(site.not_started) + " files not started";
  namespace assets = preview_assets;
  const std::string title = preview_html::Escape(folder + " - animkit preview");
  const std::string summary_html = preview_html::Escape(summary);
  const std::string script = preview_html::InlineScript(assets::kGalleryJs);
  const std::string html = preview_html::Fill(
      assets::kGalleryHtml,
      {{"TITLE", title}, {"STYLE", assets::kPreviewCss}, {"SUMMARY", summary_html}, {"ROWS", rows}, {"SCRIPT", script}});
  const std::string index = TextOf(out_root / "index.html");
  fs::create_directories(out_root, ec);
  if (ec) throw Error::General("cannot create the folder: " + ec.message()).InFile(request.output_dir);
  std::vector<std::string> inputs;
  inputs.reserve(files.size());
  for (const std::string& rel : files) inputs.push_back(TextOf(in_root / PathOf(rel)));
  WriteFileAtomic(index, View(html), inputs);
  return index;
}

}  // namespace

size_t PreviewSite::failed() const {
  return static_cast<size_t>(std::count_if(files.begin(), files.end(), [](const PreviewSiteEntry& e) { return !e.error.empty(); }));
}

PreviewSite WritePreviewSite(const PreviewSiteRequest& request) {
  PageAction action(request);
  const FolderJob job(request, &action);
  const BatchReport report = job.Run();

  PreviewSite site;
  for (const BatchFileResult& r : report.files) {
    if (r.status != BatchStatus::Skipped) {
      site.files.push_back(action.EntryOf(r));
    } else if (r.format.empty() && r.bytes_in > request.max_file_size) {
      ++site.too_large;
    } else {
      ++site.unrecognised;
    }
  }
  site.not_started = report.not_started;
  site.cancelled = report.cancelled;
  WriteSharedAssets(request);
  site.index = WriteGallery(request, site, action.files());
  return site;
}

}  // namespace animkit
