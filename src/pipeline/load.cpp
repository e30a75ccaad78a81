// Loading: detect, read, decode within the limits.
#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/path.hpp>
#include <animkit/pipeline/load.hpp>

namespace animkit {

namespace {

const FormatDescriptor& PickFormat(ByteView data, const std::string& path, std::string_view format_id) {
  if (!format_id.empty()) {
    const FormatDescriptor* f = FindFormat(format_id);
    if (!f) throw Error::General("unknown format id '" + std::string(format_id) + "'");
    return *f;
  }
  if (const Detection d = Detect(data, path); d.format) return *d.format;
  // No probe claims the bytes; an extension that only one format uses still names
  // the format whose error (with its offset) tells the user what is wrong.
  const auto by_extension = FormatsForExtension(ExtensionOf(path));
  if (by_extension.size() != 1) throw Error::General("not a file of any supported format (use --format to force one)");
  return *by_extension.front();
}

template <class T>
uint64_t CheckTrack(const Track<T>& track, const Limits& limits, const std::string& what) {
  CheckLimit(track.times.size(), &Limits::max_keys, limits, what + ": the key count");
  for (Seconds t : track.times) CheckedTime(t, what + ": a key time");
  return track.times.size();
}

uint64_t CheckClip(const Clip& clip, const Limits& limits) {
  const std::string what = "clip '" + clip.name + "'";
  CheckedTime(clip.frame_rate, what + ": the frame rate");
  CheckedTime(clip.duration, what + ": the duration");
  CheckLimit(clip.frame_count, &Limits::max_frames, limits, what + ": the frame count");
  CheckLimit(clip.tracks.size(), &Limits::max_joints, limits, what + ": the joint count");
  uint64_t keys = 0;
  for (const JointTrack& t : clip.tracks) {
    const std::string track = what + " joint '" + t.joint + "'";
    keys += CheckTrack(t.translation, limits, track + " translation");
    keys += CheckTrack(t.rotation, limits, track + " rotation");
    keys += CheckTrack(t.scale, limits, track + " scale");
    CheckLimit(t.visible.size(), &Limits::max_frames, limits, track + ": the visibility frame count");
  }
  for (const CameraTrack& c : clip.cameras) {
    CheckLimit(c.times.size(), &Limits::max_keys, limits, what + " camera '" + c.name + "': the key count");
    keys += c.times.size();
  }
  for (const Event& e : clip.events) {
    CheckedTime(e.time, what + " event '" + e.name + "': the time");
    if (e.end_time) CheckedTime(*e.end_time, what + " event '" + e.name + "': the end time");
  }
  return keys + clip.events.size();
}

// owner: what keeps data alive for a document that keeps a view of it (ReadContext::bytes_owner).
LoadedFile LoadShared(ByteView data, const std::string& path, std::string_view format_id, const Options& options,
                      std::shared_ptr<const void> owner) {
  LoadedFile loaded;
  loaded.path = path;
  loaded.input_bytes = data.size();
  try {
    loaded.format = &PickFormat(data, path, format_id);
    if (!loaded.format->read) throw Error::General(std::string(loaded.format->id) + " files cannot be read");
    loaded.document = loaded.format->read(data, ReadContext{options, path, {}, std::move(owner)});
  } catch (const Error& e) {
    throw e.InFile(path);
  }
  return loaded;
}

}  // namespace

LoadedFile LoadBytes(ByteView data, const std::string& path, std::string_view format_id, const Options& options) {
  return LoadShared(data, path, format_id, options, nullptr);
}

void RequireOneScene(const LoadedFile& loaded) {
  if (!loaded.format->archive_of_files || !loaded.document->Scenes().empty()) return;
  throw Error::General("holds files to convert one by one, not one scene: convert it into a folder (convert " +
                       TextOf(PathOf(loaded.path).filename()) + " OUT/), or extract a member (animkit archive extract)")
      .InFile(loaded.path);
}

LoadedFile LoadFile(const std::string& path, std::string_view format_id, const Options& options) {
  // Mapped, not copied: a reader keeps what it needs of the bytes (a large archive is read
  // once, into its document).
  const auto mapped = std::make_shared<const MappedFile>(path);
  return LoadShared(mapped->bytes(), path, format_id, options, mapped);
}

Scene LoadReference(const std::string& path, const Options& options) {
  LoadedFile f = LoadFile(path, "", options);
  return DecodeDocument(f, DecodeContext{nullptr, options});
}

Scene DecodeDocument(const LoadedFile& loaded, const DecodeContext& context) {
  try {
    DecodeContext scaled = context;
    scaled.options.SetLimits(ForInputSize(context.options.limits(), loaded.input_bytes));
    Scene scene = loaded.document->Decode(scaled);
    if (std::string nothing = NothingReadable(loaded, scene, context.reference); !nothing.empty()) throw Error::General(nothing);
    scene.source = {std::string(loaded.format->id), loaded.document->Version(), loaded.path, {}, {}};
    CheckScene(scene, scaled.options.limits());
    return scene;
  } catch (const Error& e) {
    throw e.InFile(loaded.path);
  }
}

std::vector<std::string> ReadWarnings(const LoadedFile& loaded) {
  std::vector<std::string> out = loaded.document->Warnings();
  for (const std::string& d : loaded.document->Damaged())
    out.push_back("damaged, no clip from it (its bytes are kept): " + d);
  return out;
}

std::string NothingReadable(const LoadedFile& loaded, const Scene& scene, const Scene* reference) {
  const bool own_skeleton = !scene.skeleton.empty() && (!reference || reference->skeleton.empty());
  if (!scene.clips.empty() || !scene.meshes.empty() || own_skeleton) return {};
  const std::vector<std::string> damaged = loaded.document->Damaged();
  if (damaged.empty()) return {};
  std::string text = "nothing could be read: every part is damaged (" + std::to_string(damaged.size()) + ")";
  constexpr size_t kShown = 4;  // the first few name where; `animkit validate` lists them all
  for (size_t i = 0; i < damaged.size() && i < kShown; ++i) text += "; " + damaged[i];
  if (damaged.size() > kShown) text += "; and " + std::to_string(damaged.size() - kShown) + " more";
  return text;
}

void CheckScene(const Scene& scene, const Limits& limits) {
  CheckLimit(scene.skeleton.joints.size(), &Limits::max_joints, limits, "the skeleton's joint count");
  CheckLimit(scene.clips.size(), &Limits::max_clips, limits, "the clip count");
  uint64_t keys = 0;
  for (const Clip& clip : scene.clips) keys += CheckClip(clip, limits);
  CheckLimit(keys, &Limits::max_values, limits, "the number of keys decoded");
}

const Clip& RequireClip(const Scene& scene, const std::string& name, const std::string& file) {
  for (const Clip& c : scene.clips)
    if (c.name == name) return c;
  throw Error::General("no clip named '" + name + "'").InFile(file);
}

bool ClipNameMatches(std::string_view name, std::string_view pattern) {
  // Greedy glob match: on a mismatch, let the last `*` take one more character.
  size_t n = 0, p = 0, star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || (pattern[p] != '*' && pattern[p] == name[n]))) {
      ++n, ++p;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<size_t> SelectClips(const Scene& scene, const std::vector<std::string>& patterns, const std::string& file) {
  std::vector<bool> chosen(scene.clips.size(), patterns.empty());
  for (const std::string& pattern : patterns) {
    bool any = false;
    for (size_t k = 0; k < scene.clips.size(); ++k)
      if (ClipNameMatches(scene.clips[k].name, pattern)) chosen[k] = any = true;
    if (!any)
      throw Error::General(pattern.find_first_of("*?") == std::string::npos ? "no clip named '" + pattern + "'"
                                                                              : "no clip matches '" + pattern + "'")
          .InFile(file);
  }
  std::vector<size_t> out;
  for (size_t k = 0; k < chosen.size(); ++k)
    if (chosen[k]) out.push_back(k);
  return out;
}

}  // namespace animkit
