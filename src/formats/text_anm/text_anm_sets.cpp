// Text ANM: cutting clips out of a model's timeline, and the inverse layout.
#include <animkit/formats/text_anm.hpp>
#include <animkit/offline/sampling.hpp>
#include "text_anm_internal.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace animkit::text_anm {
namespace {

// Keys closer than this (in frames) to a range end count as inside it.
constexpr double kFrameEpsilon = 1e-3;


std::vector<std::vector<int>> ChildrenOf(const Skeleton& s) {
  std::vector<std::vector<int>> children(s.joints.size());
  for (size_t i = 0; i < s.joints.size(); ++i) {
    const int p = s.joints[i].parent;
    if (p >= 0 && static_cast<size_t>(p) < s.joints.size() && static_cast<size_t>(p) != i)
      children[static_cast<size_t>(p)].push_back(static_cast<int>(i));
  }
  return children;
}

// Marks every descendant of root (not root itself); visits each joint once.
void MarkDescendants(const std::vector<std::vector<int>>& children, int root, std::vector<bool>& mark) {
  std::vector<int> stack(children[static_cast<size_t>(root)].begin(), children[static_cast<size_t>(root)].end());
  std::vector<bool> seen(children.size(), false);
  while (!stack.empty()) {
    const int j = stack.back();
    stack.pop_back();
    if (seen[static_cast<size_t>(j)]) continue;
    seen[static_cast<size_t>(j)] = true;
    mark[static_cast<size_t>(j)] = true;
    for (int c : children[static_cast<size_t>(j)]) stack.push_back(c);
  }
}

struct Range {
  uint32_t start, end;
  bool Contains(double seconds) const {
    const double f = seconds * kFramesPerSecond;
    return f >= start - kFrameEpsilon && f <= end + kFrameEpsilon;
  }
};

struct Extent {
  bool any = false;
  double first = 0, last = 0;
  void Add(double t) {
    first = any ? std::min(first, t) : t;
    last = any ? std::max(last, t) : t;
    any = true;
  }
};

template <class T>
Track<T> CutTrack(const Track<T>& src, const Range& range, Extent& extent) {
  Track<T> dst;
  dst.interpolation = src.interpolation;
  const size_t n = std::min(src.times.size(), src.values.size());
  const bool tangents = src.interpolation == Interpolation::Hermite && src.in_tangents.size() >= n &&
                        src.out_tangents.size() >= n;
  for (size_t i = 0; i < n; ++i) {
    if (!range.Contains(src.times[i])) continue;
    dst.Add(src.times[i], src.values[i]);
    if (tangents) {
      dst.in_tangents.push_back(src.in_tangents[i]);
      dst.out_tangents.push_back(src.out_tangents[i]);
    }
    extent.Add(src.times[i]);
  }
  return dst;
}

template <class T>
void Shift(Track<T>& track, Seconds start) {
  for (Seconds& t : track.times) t -= start;
}

}  // namespace

Scene DecodeSets(const File& file, const Scene& model, const Limits& limits) {
  uint64_t keys = 0;  // cut so far: every clip copies keys of the timeline
  if (model.clips.empty()) {
    throw Error::General(
        "the --skeleton model has no animation: text ANM sets are cut from its first animation (the timeline)");
  }
  const Clip& timeline = model.clips.front();
  Skeleton skeleton = model.skeleton;
  if (skeleton.empty()) {
    for (const JointTrack& t : timeline.tracks)
      if (skeleton.Find(t.joint) < 0) skeleton.joints.push_back(Joint{t.joint, -1, {}});
  }
  const auto children = ChildrenOf(skeleton);
  const size_t n = skeleton.joints.size();

  Scene scene;
  scene.skeleton = skeleton;
  for (const AnimSet& set : file.sets) {
    std::vector<bool> in(n, false);
    for (const BoneLine& bl : set.bones) {
      const int j = skeleton.Find(bl.bone);
      if (j < 0) {
        std::string hint;
        for (size_t i = 0; i < n && i < 4; ++i) hint += (i ? ", " : "") + Quote(skeleton.joints[i].name);
        if (n > 4) hint += ", ...";
        throw Error::AtLine(bl.at.line, bl.at.column,
                            "bone " + Quote(bl.bone) + " is not in the model's skeleton (expected one of its " +
                                std::to_string(n) + " joints" + (n ? ": " + hint : std::string()) + ")");
      }
      in[static_cast<size_t>(j)] = true;
      if (bl.children) MarkDescendants(children, j, in);
      const int parent = skeleton.joints[static_cast<size_t>(j)].parent;
      if (bl.parent && parent >= 0 && static_cast<size_t>(parent) < n) in[static_cast<size_t>(parent)] = true;
    }
    std::vector<size_t> bones;
    for (size_t i = 0; i < n; ++i)
      if (in[i]) bones.push_back(i);

    for (const AnimLine& an : set.anims) {
      const Range range{an.start, an.end};
      Extent extent;
      Clip clip;
      clip.name = set.name + "/" + an.name;
      clip.frame_rate = kFramesPerSecond;
      clip.space = timeline.space;
      for (size_t b : bones) {
        JointTrack t;
        t.joint = skeleton.joints[b].name;
        if (const JointTrack* src = timeline.FindTrack(t.joint)) {
          t.translation = CutTrack(src->translation, range, extent);
          t.rotation = CutTrack(src->rotation, range, extent);
          t.scale = CutTrack(src->scale, range, extent);
        }
        clip.tracks.push_back(std::move(t));
      }
      for (const EventLine& ev : set.events) {
        if (ev.frame < an.start || ev.frame > an.end) continue;
        extent.Add(ev.frame / kFramesPerSecond);
        clip.events.push_back(Event{static_cast<Seconds>(ev.frame / kFramesPerSecond), ev.name, {}, {}});
      }
      const double first = extent.any ? extent.first : an.start / kFramesPerSecond;
      const double last = extent.any ? extent.last : first;
      const auto start = static_cast<Seconds>(first);
      for (JointTrack& t : clip.tracks) {
        Shift(t.translation, start);
        Shift(t.rotation, start);
        Shift(t.scale, start);
      }
      for (Event& e : clip.events) {
        e.time = static_cast<Seconds>(e.time - start);
        if (e.time < 0) e.time = 0;
      }
      std::stable_sort(clip.events.begin(), clip.events.end(),
                       [](const Event& a, const Event& b) { return a.time < b.time; });
      clip.duration = std::max(0.0f, static_cast<Seconds>(last) - start);
      clip.frame_count = static_cast<size_t>(std::floor(clip.duration * kFramesPerSecond + kFrameEpsilon)) + 1;
      const Place at = Place::Line(an.at.line, an.at.column);
      CheckLimit(clip.frame_count, &Limits::max_frames, limits, "animation " + Quote(an.name) + ": the frame count", at);
      for (const JointTrack& t : clip.tracks) keys += t.translation.size() + t.rotation.size() + t.scale.size();
      CheckLimit(keys, &Limits::max_values, limits, "the keys cut from the timeline", at);
      clip.metadata = {{metadata_keys::kSet, set.name},
                       {metadata_keys::kAnimation, an.name},
                       {metadata_keys::kStartFrame, an.start},
                       {metadata_keys::kEndFrame, an.end},
                       {metadata_keys::kTimelineStart, first},
                       {metadata_keys::kEmpty, !extent.any}};
      scene.clips.push_back(std::move(clip));
    }
  }
  return scene;
}

namespace {

// Names are single tokens: blanks and control characters become '_'.
std::string TokenName(std::string_view name, std::string_view fallback) {
  std::string out;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    out += (u <= 0x20 || u == 0x7F) ? '_' : c;
  }
  if (out.empty()) out = std::string(fallback);
  return out;
}

struct Entry {
  std::string set, anim;
  const Clip* clip = nullptr;
};

template <class T>
void Append(Track<T>& dst, bool& started, const Track<T>& src, double offset, const std::string& clip,
            const std::string& joint, const char* property) {
  if (src.times.empty()) return;
  if (started && dst.interpolation != src.interpolation) {
    throw Error::General("clip " + Quote(clip) + ": joint " + Quote(joint) + "'s " + property +
                         " uses a different interpolation than in an earlier clip, and a timeline track has one");
  }
  if (!started) dst.interpolation = src.interpolation;
  started = true;
  const size_t n = std::min(src.times.size(), src.values.size());
  const bool tangents = src.interpolation == Interpolation::Hermite;
  for (size_t i = 0; i < n; ++i) {
    if (!(src.times[i] >= 0) || !std::isfinite(src.times[i])) {
      throw Error::General("clip " + Quote(clip) + ": joint " + Quote(joint) + " has a key at time " +
                           std::to_string(src.times[i]) + " s; a timeline needs keys at 0 s or later");
    }
    dst.Add(static_cast<Seconds>(offset + src.times[i]), src.values[i]);
    if (tangents) {
      dst.in_tangents.push_back(i < src.in_tangents.size() ? src.in_tangents[i] : T{});
      dst.out_tangents.push_back(i < src.out_tangents.size() ? src.out_tangents[i] : T{});
    }
  }
}

// A track as one linear key per timeline frame from 0 to `frames`: how a property is
// written when clips key it with different interpolations (a timeline track has one).
template <class T>
Track<T> PerFrame(const Track<T>& src, uint64_t frames) {
  Track<T> out;
  if (src.times.empty()) return out;
  out.interpolation = Interpolation::Linear;
  size_t cursor = 0;
  for (uint64_t f = 0; f <= frames; ++f) {
    const auto t = static_cast<Seconds>(static_cast<double>(f) / kFramesPerSecond);
    out.Add(t, SampleTrack(src, t, &cursor));
  }
  return out;
}

template <class T>
void Last(const Track<T>& t, double& last) {
  for (Seconds s : t.times)
    if (std::isfinite(s)) last = std::max(last, static_cast<double>(s));
}

// The clips grouped into sets, each set's clips in order, from each clip's metadata
// (set, animation), else its name (SET/ANIM), else the default set.
struct Sets {
  std::vector<std::string> set_order;  // in order of first appearance
  std::map<std::string, std::vector<Entry>> sets;
  size_t renamed = 0;  // clips whose SET/ANIM was made a token or unique
};

Sets GroupIntoSets(const std::vector<Clip>& clips, const LayoutSettings& settings) {
  Sets out;
  auto& [set_order, sets, renamed] = out;
  std::set<std::string> used;
  for (size_t i = 0; i < clips.size(); ++i) {
    const Clip& c = clips[i];
    std::string set, anim;
    const auto ms = c.metadata.find(metadata_keys::kSet);
    const auto ma = c.metadata.find(metadata_keys::kAnimation);
    if (c.metadata.is_object() && ms != c.metadata.end() && ma != c.metadata.end() && ms->is_string() &&
        ma->is_string()) {
      set = ms->get<std::string>();
      anim = ma->get<std::string>();
    } else if (size_t slash = c.name.find('/'); slash != std::string::npos) {
      set = c.name.substr(0, slash);
      anim = c.name.substr(slash + 1);
    } else {
      set = settings.default_set;
      anim = c.name;
    }
    std::string s = TokenName(set, "anim"), a = TokenName(anim, "clip" + std::to_string(i));
    for (int k = 2; used.count(s + "/" + a); ++k) a = TokenName(anim, "clip") + "_" + std::to_string(k);
    if (s != set || a != anim) ++renamed;
    used.insert(s + "/" + a);
    if (!sets.count(s)) set_order.push_back(s);
    sets[s].push_back(Entry{s, a, &c});
  }
  return out;
}

// Seconds to the clip's last key or event, or its duration when that is later.
double ClipEnd(const Clip& c) {
  double last = std::isfinite(c.duration) ? std::max(0.0, static_cast<double>(c.duration)) : 0.0;
  for (const JointTrack& t : c.tracks) {
    Last(t.translation, last);
    Last(t.rotation, last);
    Last(t.scale, last);
  }
  for (const Event& ev : c.events)
    if (std::isfinite(ev.time)) last = std::max(last, static_cast<double>(ev.time));
  return last;
}

// A set's `bl` lines: one line per bone in it, or "+children" where a whole subtree is.
std::string BoneLines(const Skeleton& skeleton, const std::vector<std::vector<int>>& children,
                      const std::vector<bool>& in) {
  const size_t n = skeleton.joints.size();
  std::string text;
  std::vector<bool> covered(n, false);
  for (size_t j = 0; j < n; ++j) {
    if (!in[j] || covered[j]) continue;
    std::vector<bool> sub(n, false);
    MarkDescendants(children, static_cast<int>(j), sub);
    bool whole = false, all = true;
    for (size_t k = 0; k < n; ++k) {
      if (!sub[k]) continue;
      whole = true;
      if (!in[k]) all = false;
    }
    const std::string& bone = skeleton.joints[j].name;
    if (bone.empty() || TokenName(bone, "") != bone) {
      throw Error::General("joint " + Quote(bone) + " cannot be named in a text ANM (names are single tokens "
                           "without spaces)");
    }
    text += "bl " + bone;
    covered[j] = true;
    if (whole && all) {
      text += " +children";
      for (size_t k = 0; k < n; ++k)
        if (sub[k]) covered[k] = true;
    }
    text += "\n";
  }
  return text;
}

}  // namespace

Layout LayOut(const std::vector<Clip>& clips, const Skeleton& skeleton_in, const LayoutSettings& settings,
              const std::string& header_comment) {
  if (clips.empty()) throw Error::General("nothing to write: the input has no animation clip");
  if (settings.gap_frames < 1 || settings.gap_frames > 100000) {
    throw Error::General("the gap between clips on a timeline must be 1..100000 frames");
  }
  Layout layout;
  Skeleton skeleton = skeleton_in;
  if (skeleton.empty()) {
    for (const Clip& c : clips)
      for (const JointTrack& t : c.tracks)
        if (skeleton.Find(t.joint) < 0) skeleton.joints.push_back(Joint{t.joint, -1, {}});
  }
  if (skeleton.empty()) throw Error::General("nothing to write: the clips animate no joint");
  const size_t n = skeleton.joints.size();
  const auto children = ChildrenOf(skeleton);

  auto [set_order, sets, renamed] = GroupIntoSets(clips, settings);

  Clip timeline;
  timeline.name = settings.timeline_name;
  timeline.frame_rate = kFramesPerSecond;
  timeline.metadata = {{metadata_keys::kTimeline, true}};
  std::vector<JointTrack> tracks(n);
  std::vector<std::array<bool, 3>> started(n, {false, false, false});
  for (size_t j = 0; j < n; ++j) tracks[j].joint = skeleton.joints[j].name;

  // Joint properties (joint, 0 translation / 1 rotation / 2 scale) the clips key with
  // different interpolations: written one linear key per frame.
  std::map<std::string, std::array<std::set<Interpolation>, 3>> kinds;
  for (const Clip& c : clips)
    for (const JointTrack& t : c.tracks) {
      auto& k = kinds[t.joint];
      if (!t.translation.times.empty()) k[0].insert(t.translation.interpolation);
      if (!t.rotation.times.empty()) k[1].insert(t.rotation.interpolation);
      if (!t.scale.times.empty()) k[2].insert(t.scale.interpolation);
    }

  std::string text;
  if (!header_comment.empty()) {
    std::string comment;
    for (char c : header_comment) comment += static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? ' ' : c;
    text += "# " + comment + "\n";
  }
  uint64_t cursor = 0, last_end = 0;
  size_t moved_events = 0, dropped_event_fields = 0, bones_added = 0;
  for (size_t si = 0; si < set_order.size(); ++si) {
    const std::string& set_name = set_order[si];
    std::vector<bool> in(n, false);
    std::string ev_lines, an_lines;
    for (const Entry& e : sets[set_name]) {
      const Clip& c = *e.clip;
      if (c.space == Space::Model) {
        throw Error::General("clip " + Quote(c.name) + " holds model-space transforms; a text ANM timeline is local");
      }
      const double last = ClipEnd(c);
      const auto frames = static_cast<uint64_t>(std::ceil(last * kFramesPerSecond - kFrameEpsilon));
      const uint64_t start = cursor, end = cursor + frames;
      if (end > kMaxFrame) throw Error::General("the clips do not fit on a timeline of " + std::to_string(kMaxFrame) + " frames");
      const double offset = static_cast<double>(start) / kFramesPerSecond;
      for (const JointTrack& t : c.tracks) {
        const int j = skeleton.Find(t.joint);
        if (j < 0) {
          throw Error::General("clip " + Quote(c.name) + " animates joint " + Quote(t.joint) +
                               ", which the skeleton does not have");
        }
        const auto ju = static_cast<size_t>(j);
        in[ju] = true;
        const auto& k = kinds[t.joint];
        Append(tracks[ju].translation, started[ju][0], k[0].size() > 1 ? PerFrame(t.translation, frames) : t.translation,
               offset, c.name, t.joint, "translation");
        Append(tracks[ju].rotation, started[ju][1], k[1].size() > 1 ? PerFrame(t.rotation, frames) : t.rotation,
               offset, c.name, t.joint, "rotation");
        Append(tracks[ju].scale, started[ju][2], k[2].size() > 1 ? PerFrame(t.scale, frames) : t.scale, offset,
               c.name, t.joint, "scale");
      }
      for (const Event& ev : c.events) {
        const double f = std::isfinite(ev.time) ? std::max(0.0, ev.time * kFramesPerSecond) : 0.0;
        const auto whole = static_cast<uint64_t>(std::llround(f));
        if (std::abs(f - static_cast<double>(whole)) > kFrameEpsilon) ++moved_events;
        if (!ev.params.empty() || ev.end_time) ++dropped_event_fields;
        ev_lines += "ev " + std::to_string(start + std::min(whole, frames)) + " " + TokenName(ev.name, "event") + "\n";
      }
      an_lines += "an " + std::to_string(start) + " " + std::to_string(end) + " " + e.anim + "\n";
      last_end = end;
      cursor = end + settings.gap_frames;
    }
    if (std::none_of(in.begin(), in.end(), [](bool b) { return b; })) {
      in[0] = true;  // a set needs a bone: the first joint, which no clip of the set animates
      ++bones_added;
    }
    if (si) text += "\n";
    text += "as " + set_name + "\n";
    text += BoneLines(skeleton, children, in);
    text += ev_lines + an_lines;
  }

  for (size_t j = 0; j < n; ++j) {
    if (!tracks[j].translation.empty() || !tracks[j].rotation.empty() || !tracks[j].scale.empty())
      timeline.tracks.push_back(std::move(tracks[j]));
  }
  timeline.frame_count = static_cast<size_t>(last_end) + 1;
  timeline.duration = static_cast<Seconds>(static_cast<double>(last_end) / kFramesPerSecond);
  layout.timeline.skeleton = skeleton;
  layout.timeline.clips.push_back(std::move(timeline));
  layout.timeline.metadata = {{metadata_keys::kTimeline, true}};

  const ByteView bytes(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  layout.file = Parse(bytes);
  layout.report = {{"sets", set_order.size()},
                   {"clips", clips.size()},
                   {"timeline_frames", last_end + 1},
                   {"gap_frames", settings.gap_frames},
                   {"renamed_clips", renamed},
                   {"events_moved_to_whole_frames", moved_events},
                   {"events_with_dropped_params_or_end", dropped_event_fields},
                   {"sets_given_a_placeholder_bone", bones_added}};
  return layout;
}

}  // namespace animkit::text_anm
