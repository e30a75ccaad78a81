// `animkit preview`: a file as one self-contained HTML page (three.js and the animation
// as an embedded glb inline: it opens offline, from file://), and a folder as a site of
// such pages with a searchable gallery (index.html). docs/preview.md describes the page.
#pragma once

#include <animkit/pipeline/folder_job.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace animkit {

struct PreviewRequest {
  // What the file decodes against (a site gives each skeleton decoded once); the
  // default: its companion.
  SkeletonSource skeleton;
  std::string clip;  // only this clip ("" = every clip); Error naming the file when none is
  Options options;
  // "" (the default): a self-contained page, three.js and the viewer inline. Else the URL
  // (relative to the page, ending in '/') of a folder holding PreviewSharedAssets, which
  // the page refers to instead (a site's pages share them).
  std::string assets;
};

// A file every page of a site shares (three.js, the loader, the controls, the viewer, its
// style), written once into the site's kPreviewAssetsFolder.
struct PreviewAsset {
  std::string name;
  std::string content;
};
std::vector<PreviewAsset> PreviewSharedAssets();
inline constexpr std::string_view kPreviewAssetsFolder = "animkit-preview";

struct PreviewPage {
  std::string html;
  size_t glb_bytes = 0;  // the embedded glb (ExportGltf), before gzip
  Companion skeleton;    // the skeleton file used ("" for none)
  SkeletonUse skeleton_use = SkeletonUse::None;
  std::string skeleton_warning;  // a companion not used, and why
  Value info;            // the file's `info --json` document (InfoValue), as the page shows it
};

// The page of a loaded file: its scene (DecodeWithSkeleton) exported as a glb, its info,
// the viewer (viewer/) and three.js, all inline. Errors name the file.
PreviewPage BuildPreviewPage(const LoadedFile& loaded, const PreviewRequest& request);

// The page of a retarget (RetargetRequest::page takes it): the source's page, its clips
// those retargeted, with the target beside it playing them in step (one clip list, one
// timeline), each standing on the floor in its own up axis. Errors name the file.
std::string RetargetPreviewPage(const RetargetPageInput& input);

// The most a self-contained page may weigh: 1.5 MB for three.js and the viewer, plus 1.4 x
// the glb (the gzipped glb, at most a little over the glb, written 7 bits per character:
// 8/7 of it). A test holds every sample's page to it.
size_t PreviewPageSizeLimit(size_t glb_bytes);

// The up axis a format's files use (FormatDescriptor::up_axis), as the page and the
// Blender add-on show them: "-Y" for the PS1 formats, whose Y axis points down.
std::string_view PreviewUpAxis(std::string_view format_id);

// The folder job's inputs (FolderJobInputs): convert DIR's threads, progress, cancel and
// size limit included. skeleton, for files no map rule matches, is the companion
// (the default SkeletonSource) unless set (as PreviewRequest's).
struct PreviewSiteRequest : FolderJobInputs {};

// One recognised file of the folder, as the gallery lists it.
struct PreviewSiteEntry {
  std::string path;      // relative to the input folder, '/'-separated
  std::string format;    // detected format id
  std::string page;      // relative to the output folder; "" when none was written (error)
  std::string skeleton;  // the skeleton file used, relative to the input folder ("" for none)
  size_t clips = 0, frames = 0, joints = 0, events = 0;  // as `animkit info --json` counts them
  size_t page_bytes = 0, glb_bytes = 0;
  std::string error;  // why the file has no page (a damaged file: the reader's error)
};

struct PreviewSite {
  std::vector<PreviewSiteEntry> files;  // every recognised file, sorted by path
  size_t unrecognised = 0;              // files no format recognises by their contents (not listed)
  size_t too_large = 0;                 // files over max_file_size, skipped unread (not listed)
  size_t not_started = 0;               // files left when cancelled (not listed)
  bool cancelled = false;
  std::string index;                    // the gallery: OUTPUT/index.html
  size_t failed() const;
};

// Writes a page per recognised file (OUTPUT/<relative path>.html) and the gallery,
// each atomically; never over a file of the input folder (an output folder inside it
// is left out of the walk). The folder job (FolderJob) with a page as its per-file
// action: the walk, detection, skeleton pairing, the guard, threads, progress, cancel
// and the size limit are convert DIR's. A damaged file gets an error line in the
// gallery, not a page (nor does a file whose map rule's skeleton glob matches nothing);
// skeleton-only files get a page with the rest pose. When cancelled, the gallery lists
// the files done. Error for a usage error (FolderJob::Validate: no such folder, output
// equal to input, a malformed glob).
PreviewSite WritePreviewSite(const PreviewSiteRequest& request);

}  // namespace animkit
