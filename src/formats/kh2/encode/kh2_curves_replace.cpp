// A KH2 file with some motions' curves replaced, every other byte kept (docs/formats/kh2.md,
// "Curves as stored").
#include <animkit/formats/kh2/curves.hpp>

#include "formats/kh2/kh2_fields.hpp"
#include "formats/kh2/kh2_internal.hpp"

#include <cmath>
#include <cstdint>
#include <bit>
#include <functional>
#include <optional>
#include <map>
#include <unordered_map>

namespace animkit::kh2 {
namespace curves_replace {

constexpr size_t kTimeIndexLimit = 1 << 14;  // key time index: 14 bits
constexpr size_t kIndexLimit = 1 << 16;      // values, tangents, first key: u16

// An edited key within float32 rounding of the stored key at its frame is that key: an
// editor keeps keys as float32 frames, values and Bezier handles, and the slopes read back
// from handles at a third of a segment differ from the stored ones in their last bits
// (docs/formats/kh2.md, "Writing curves back").
bool WithinRounding(const CurveKey& edited, const CurveKey& stored, double segment) {
  if (edited.interpolation != stored.interpolation) return false;
  if (std::abs(double(edited.frame) - stored.frame) > 1e-3) return false;
  const double v = std::abs(double(stored.value));
  if (std::abs(double(edited.value) - stored.value) > 4e-7 * (1 + v)) return false;
  const double span = std::max(segment, 1e-3);
  const auto near = [&](float a, float b) { return std::abs(double(a) - b) <= 1e-5 * (1 + std::abs(double(b)) + 3 * v / span); };
  return near(edited.in_slope, stored.in_slope) && near(edited.out_slope, stored.out_slope);
}

// The shorter of the segments next to key j (1 when it has none of positive length).
double SegmentAt(const std::vector<CurveKey>& keys, size_t j) {
  double segment = 1e30;
  if (j > 0) segment = std::min(segment, double(keys[j].frame) - keys[j - 1].frame);
  if (j + 1 < keys.size()) segment = std::min(segment, double(keys[j + 1].frame) - keys[j].frame);
  return segment <= 0 || segment == 1e30 ? 1 : segment;
}

// The edited keys, each within rounding of the stored key it stands for replaced by it.
std::vector<CurveKey> Snapped(const std::vector<CurveKey>& edited, const std::vector<CurveKey>& stored) {
  std::vector<CurveKey> out = edited;
  size_t j = 0;
  for (CurveKey& k : out) {
    while (j < stored.size() && stored[j].frame < k.frame - 1e-3f) ++j;
    if (j == stored.size()) break;
    if (WithinRounding(k, stored[j], SegmentAt(stored, j))) {
      k = stored[j];
      ++j;
    }
  }
  return out;
}

std::string Where(const std::string& clip, const StoredChannel& c) {
  return "clip " + clip + ", joint " + (c.joint >= 0 ? std::to_string(c.joint) : c.joint_name) +
         (c.joint >= 0 && !c.joint_name.empty() ? " (" + c.joint_name + ")" : "") + ", " +
         std::string(ToString(c.property)) + "[" + std::to_string(c.axis) + "]";
}

int ChannelOf(const StoredChannel& c) {
  const int first = c.property == CurveProperty::Scale ? 0 : c.property == CurveProperty::RotationEuler ? 3 : 6;
  return first + c.axis;
}

// A table growing at its end: existing entries found by their bits, new ones appended.
class Table {
 public:
  // view: what an entry reads as (a key time as a frame, a tangent as a slope per frame).
  Table(const std::vector<float>& entries, size_t own, size_t read_past, size_t limit, std::string what,
        const std::function<float(float)>& view)
      : own_(own), read_past_(read_past), limit_(limit), what_(std::move(what)) {
    for (size_t i = 0; i < own; ++i) index_.emplace(std::bit_cast<uint32_t>(view(entries[i])), i);
  }
  // The index of the entry whose view is wanted; else stored (appended).
  size_t Find(float wanted, float stored, const std::string& where) {
    const auto it = index_.find(std::bit_cast<uint32_t>(wanted));
    if (it != index_.end()) return it->second;
    if (read_past_ > 0)
      throw Error::General(where + ": the motion's " + what_ + " table would grow, but curves read " +
                           std::to_string(read_past_) + " entries past its end (they would read the new ones)");
    const size_t i = own_ + added.size();
    if (i >= limit_) throw Error::General(where + ": the motion's " + what_ + " table is full (" + std::to_string(limit_) + " entries)");
    added.push_back(stored);
    index_.emplace(std::bit_cast<uint32_t>(wanted), i);
    return i;
  }
  std::vector<float> added;

 private:
  size_t own_, read_past_, limit_;
  std::string what_;
  std::unordered_map<uint32_t, size_t> index_;
};

Bytes Chunk(const std::function<void(ByteWriter&)>& f) {
  ByteWriter w(Endian::Little);
  f(w);
  return w.Take();
}

// One motion's edits: the tables' new entries and the patched curves, then the entry's bytes.
class MotionRewrite {
 public:
  MotionRewrite(const Motion& motion, const std::string& clip)
      : motion_(motion),
        clip_(clip),
        im_(motion.interpolated),
        per_frame_(kEngineRate / double(im_.fps)),
        start_(detail::FramesPlayed(im_).start),
        stored_(StoredCurvesOf(motion, {}, {})),
        own_keys_(im_.keys.size() - im_.read_past.keys),
        // Entries are found by what they read as in the stored curves (formats/kh2/curves.hpp).
        times_(im_.key_times, im_.key_times.size() - im_.read_past.key_times, im_.read_past.key_times, kTimeIndexLimit,
               "key time", [this](float t) { return static_cast<float>(double(t) / per_frame_ - start_); }),
        values_(im_.values, im_.values.size() - im_.read_past.values, im_.read_past.values, kIndexLimit, "key value",
                [](float v) { return v; }),
        tangents_(im_.tangents, im_.tangents.size() - im_.read_past.tangents, im_.read_past.tangents, kIndexLimit,
                  "tangent", [this](float t) { return static_cast<float>(double(t) * per_frame_); }) {
    if (motion.raw) throw Error::General("clip " + clip + ": a raw motion stores no curves");
  }

  void Apply(const CurveEdit& edit, ReplaceCurvesReport& report) {
    StoredChannel c = edit.channel;
    const std::string where = Where(clip_, c);
    const size_t curve = CurveFor(c, where);
    // Clips sharing a motion (links) may each submit its curves: the same keys are one edit.
    const auto twice = std::find_if(seen_.begin(), seen_.end(), [&](const auto& s) { return s.first == curve; });
    if (twice != seen_.end()) {
      const StoredChannel& other = twice->second->channel;
      if (other.keys == c.keys && other.pre == c.pre && other.post == c.post) return;
      throw Error::General(where + ": edited twice, differently (also as clip " + twice->second->clip + ")");
    }
    seen_.emplace_back(curve, &edit);
    if (c.keys.empty()) throw Error::General(where + ": a curve needs at least one key");
    if (c.keys.size() > 255) throw Error::General(where + ": " + std::to_string(c.keys.size()) + " keys (a curve holds at most 255)");
    const StoredChannel* current = nullptr;
    for (const StoredChannel& s : stored_.channels)
      if (s.joint == c.joint && s.property == c.property && s.axis == c.axis) current = &s;
    if (current) c.keys = Snapped(c.keys, current->keys);
    if (current && current->keys == c.keys && current->pre == c.pre && current->post == c.post) {
      ++report.unchanged;  // as the file has it, whatever it holds (real files have keys at equal times)
      return;
    }
    CheckKeys(c, where);
    const std::vector<Key> keys = Encoded(c, where);
    const size_t first = Placed(keys, where);
    Curve rec = im_.forward[curve];
    rec.first_key = static_cast<uint16_t>(first);
    rec.key_count = static_cast<uint8_t>(keys.size());
    rec.packed = static_cast<uint8_t>((rec.packed & 15) | (static_cast<uint8_t>(c.pre) << 4) | (static_cast<uint8_t>(c.post) << 6));
    im_.forward[curve] = rec;
    patched_.emplace_back(curve, rec);
    ++report.replaced;
  }

  // The entry's bytes; nullopt when no edit changed a curve.
  std::optional<Bytes> Write(ReplaceCurvesReport& report) {
    if (patched_.empty()) return std::nullopt;
    report.appended_keys += added_keys_.size();
    report.appended_times += times_.added.size();
    report.appended_values += values_.added.size();
    report.appended_tangents += tangents_.added.size();
    Bytes bytes = SerializeMotion(motion_);  // the entry as read (Serialize(Parse(x)) == x)
    for (const auto& [i, patched] : patched_)
      fields::WriteAt(bytes, At(im_.forward_offset) + i * fields::Size(detail::kCurveRecord), Endian::Little, patched,
                      detail::kCurveRecord);
    const std::vector<Growth> growth = Growths();
    MoveOffsets(growth);
    Bytes out;
    size_t from = 0;
    for (const Growth& g : growth) {
      out.insert(out.end(), bytes.begin() + std::ptrdiff_t(from), bytes.begin() + std::ptrdiff_t(g.end));
      out.insert(out.end(), g.data.begin(), g.data.end());
      from = g.end;
    }
    out.insert(out.end(), bytes.begin() + std::ptrdiff_t(from), bytes.end());
    MotionHeader header = motion_.header;
    if (size_t(uint32_t(header.byte_count)) + kReservedSize == bytes.size())
      header.byte_count = static_cast<int32_t>(out.size() - kReservedSize);
    fields::WriteAt(out, kReservedSize, Endian::Little, header, detail::kMotionHeader);
    fields::WriteAt(out, detail::kHeaderEnd, Endian::Little, im_, detail::kInterpolatedHeader);
    return out;
  }

 private:
  // A grown table: its new entries at the end of its own, padded to 16 bytes so that every
  // later table keeps its alignment (the padding reads as zero entries no curve uses).
  struct Growth {
    int32_t InterpolatedMotion::*offset;
    size_t end;  // absolute: the end of the table's own entries
    Bytes data;
  };

  static size_t At(int32_t offset) { return kReservedSize + size_t(uint32_t(offset)); }

  size_t CurveFor(const StoredChannel& c, const std::string& where) const {
    if (c.axis < 0 || c.axis > 2) throw Error::General(where + ": the axis must be 0, 1 or 2");
    const int channel = ChannelOf(c);
    size_t curve = im_.forward.size();
    for (size_t i = 0; i < im_.forward.size(); ++i) {
      const Curve& f = im_.forward[i];
      if (f.joint == c.joint && f.channel() == channel && f.key_count > 0 && im_.AnimatesJoint(f, false)) curve = i;
    }
    if (curve == im_.forward.size())
      throw Error::General(where + ": the motion stores no curve there (only stored curves can be replaced)");
    return curve;
  }

  // Equal frames are allowed (the game takes the later key there), going back is not.
  static void CheckKeys(const StoredChannel& c, const std::string& where) {
    for (size_t k = 0; k < c.keys.size(); ++k) {
      const CurveKey& key = c.keys[k];
      if (!std::isfinite(key.frame) || !std::isfinite(key.value) || !std::isfinite(key.in_slope) || !std::isfinite(key.out_slope))
        throw Error::General(where + ": key " + std::to_string(k) + " is not finite");
      if (k > 0 && key.frame < c.keys[k - 1].frame)
        throw Error::General(where + ": key " + std::to_string(k) + " (frame " + std::to_string(key.frame) +
                             ") is before the key before it");
    }
  }

  std::vector<Key> Encoded(const StoredChannel& c, const std::string& where) {
    std::vector<Key> keys;
    for (const CurveKey& key : c.keys) {
      Key k;
      const float tau = static_cast<float>((double(key.frame) + start_) * per_frame_);
      const size_t t = times_.Find(key.frame, tau, where);
      const KeyType type = key.interpolation == CurveInterpolation::Constant ? KeyType::Constant
                           : key.interpolation == CurveInterpolation::Linear ? KeyType::Linear
                                                                              : KeyType::Hermite;
      k.packed = static_cast<uint16_t>((t << 2) | static_cast<uint8_t>(type));
      k.value = static_cast<uint16_t>(values_.Find(key.value, key.value, where));
      k.in_tangent = static_cast<uint16_t>(tangents_.Find(key.in_slope, static_cast<float>(double(key.in_slope) / per_frame_), where));
      k.out_tangent = static_cast<uint16_t>(tangents_.Find(key.out_slope, static_cast<float>(double(key.out_slope) / per_frame_), where));
      keys.push_back(k);
    }
    return keys;
  }

  // Where the keys are: a run the table (or what was appended) already holds, else appended.
  size_t Placed(const std::vector<Key>& keys, const std::string& where) {
    auto same = [](const Key& a, const Key& b) {
      return a.packed == b.packed && a.value == b.value && a.in_tangent == b.in_tangent && a.out_tangent == b.out_tangent;
    };
    size_t first = SIZE_MAX;
    std::vector<Key> all(im_.keys.begin(), im_.keys.begin() + std::ptrdiff_t(own_keys_));
    all.insert(all.end(), added_keys_.begin(), added_keys_.end());
    for (size_t i = 0; first == SIZE_MAX && i + keys.size() <= all.size(); ++i)
      if (std::equal(keys.begin(), keys.end(), all.begin() + std::ptrdiff_t(i), same)) first = i;
    if (first == SIZE_MAX) {
      if (im_.read_past.keys > 0)
        throw Error::General(where + ": the motion's key table would grow, but curves read " +
                             std::to_string(im_.read_past.keys) + " keys past its end (they would read the new ones)");
      first = own_keys_ + added_keys_.size();
      added_keys_.insert(added_keys_.end(), keys.begin(), keys.end());
    }
    if (first + keys.size() > kIndexLimit) throw Error::General(where + ": the motion's key table is full");
    return first;
  }

  std::vector<Growth> Growths() const {
    auto pad16 = [](Bytes b) {
      b.resize((b.size() + 15) / 16 * 16, 0);
      return b;
    };
    auto floats = [&](const std::vector<float>& v) {
      return pad16(Chunk([&](ByteWriter& w) {
        for (float f : v) w.F32(f);
      }));
    };
    const InterpolatedMotion& old = motion_.interpolated;
    const auto& past = old.read_past;
    std::vector<Growth> growth;
    if (!added_keys_.empty())
      growth.push_back({&InterpolatedMotion::key_offset, At(old.key_offset) + own_keys_ * fields::Size(detail::kKeyRecord),
                        pad16(Chunk([&](ByteWriter& w) { fields::WriteTable(w, added_keys_, detail::kKeyRecord); }))});
    if (!times_.added.empty())
      growth.push_back({&InterpolatedMotion::key_time_offset,
                        At(old.key_time_offset) + (old.key_times.size() - past.key_times) * 4, floats(times_.added)});
    if (!values_.added.empty())
      growth.push_back({&InterpolatedMotion::key_value_offset,
                        At(old.key_value_offset) + (old.values.size() - past.values) * 4, floats(values_.added)});
    if (!tangents_.added.empty())
      growth.push_back({&InterpolatedMotion::tangent_offset,
                        At(old.tangent_offset) + (old.tangents.size() - past.tangents) * 4, floats(tangents_.added)});
    std::sort(growth.begin(), growth.end(), [](const Growth& a, const Growth& b) { return a.end < b.end; });
    return growth;
  }

  // Every header offset past a grown table's end moves by its growth; the key time count grows.
  void MoveOffsets(const std::vector<Growth>& growth) {
    static constexpr int32_t InterpolatedMotion::*kOffsets[] = {
        &InterpolatedMotion::ik_helper_offset,   &InterpolatedMotion::joint_offset,
        &InterpolatedMotion::initial_pose_offset, &InterpolatedMotion::root_position_offset,
        &InterpolatedMotion::forward_offset,     &InterpolatedMotion::inverse_offset,
        &InterpolatedMotion::key_offset,         &InterpolatedMotion::key_time_offset,
        &InterpolatedMotion::key_value_offset,   &InterpolatedMotion::tangent_offset,
        &InterpolatedMotion::constraint_offset,  &InterpolatedMotion::activation_offset,
        &InterpolatedMotion::limiter_offset,     &InterpolatedMotion::expression_offset,
        &InterpolatedMotion::expression_node_offset, &InterpolatedMotion::effector_offset};
    const InterpolatedMotion& old = motion_.interpolated;
    for (const auto field : kOffsets) {
      const size_t pos = At(old.*field);
      size_t shift = 0;
      for (const Growth& g : growth)
        if (pos > g.end || (pos == g.end && field != g.offset)) shift += g.data.size();
      im_.*field = static_cast<int32_t>(uint32_t(old.*field) + shift);
    }
    im_.key_time_count = static_cast<int32_t>(old.key_time_count + int32_t(times_.added.size()));
  }

  const Motion& motion_;
  std::string clip_;
  InterpolatedMotion im_;
  double per_frame_;  // key-time units per frame
  double start_;
  StoredCurves stored_;
  size_t own_keys_;
  Table times_, values_, tangents_;
  std::vector<Key> added_keys_;
  std::vector<std::pair<size_t, Curve>> patched_;  // forward curve index, its new record
  std::vector<std::pair<size_t, const CurveEdit*>> seen_;
};

// The motion's bytes with the edited curves replaced; nullopt when every edit equals the file.
std::optional<Bytes> RewriteMotion(const Motion& motion, const std::string& clip, const std::vector<const CurveEdit*>& edits,
                                   ReplaceCurvesReport& report) {
  MotionRewrite rewrite(motion, clip);
  for (const CurveEdit* edit : edits) rewrite.Apply(*edit, report);
  return rewrite.Write(report);
}

// The archive with the entry at path (entry indices from the top) holding payload.
Bytes Rebuilt(ByteView archive, const Bar& bar, const std::vector<size_t>& path, size_t depth, const Bytes& payload) {
  const size_t index = path[depth];
  if (depth + 1 == path.size()) return ReplaceEntry(archive, bar, index, payload);
  const BarEntry& e = bar.entries[index];
  if (!e.bar || e.offset > archive.size()) throw Error::General("internal: no nested archive at entry " + std::to_string(index));
  const ByteView inner = archive.subspan(e.offset, std::min<size_t>(e.size, archive.size() - e.offset));
  return ReplaceEntry(archive, bar, index, Rebuilt(inner, *e.bar, path, depth + 1, payload));
}

bool SameChannel(const StoredChannel& a, const StoredChannel& b) {
  return a.joint == b.joint && a.property == b.property && a.axis == b.axis;
}

// What the written file must give: every clip's curves as before, the edited ones as edited.
void Verify(const std::map<std::string, StoredCurves>& before, const std::map<std::string, StoredCurves>& after,
            const std::vector<CurveEdit>& edits) {
  for (const auto& [clip, curves] : before) {
    const auto it = after.find(clip);
    if (it == after.end() || it->second.channels.size() != curves.channels.size())
      throw Error::General("internal: clip " + clip + " lost curves in the written file");
    for (size_t i = 0; i < curves.channels.size(); ++i) {
      const StoredChannel &a = curves.channels[i], &b = it->second.channels[i];
      const CurveEdit* edit = nullptr;
      for (const CurveEdit& e : edits)
        if (e.clip == clip && SameChannel(e.channel, a)) edit = &e;
      if (edit) {
        if (b.keys.size() != edit->channel.keys.size())
          throw Error::General("internal: " + Where(clip, a) + " was not written as edited");
        for (size_t k = 0; k < b.keys.size(); ++k) {
          const CurveKey &x = b.keys[k], &y = edit->channel.keys[k];
          auto near = [](float p, float q) { return std::abs(double(p) - q) <= 1e-6 * (1 + std::abs(double(q))); };
          const bool as_edited = near(x.frame, y.frame) && near(x.value, y.value) && near(x.in_slope, y.in_slope) &&
                                 near(x.out_slope, y.out_slope) && x.interpolation == y.interpolation;
          if (!as_edited && !WithinRounding(y, x, SegmentAt(b.keys, k)))
            throw Error::General("internal: " + Where(clip, a) + " key " + std::to_string(k) + " was not written as edited");
        }
      } else if (!(a.keys == b.keys && a.pre == b.pre && a.post == b.post && SameChannel(a, b))) {
        throw Error::General("internal: " + Where(clip, a) + " changed though it was not edited");
      }
    }
  }
}

// Edits naming their joint get its index: the motion's joints are named as DecodeBar names them.
std::vector<CurveEdit> Resolved(const std::vector<CurveEdit>& edits, const Motion* (*motion_of)(const std::string&, const void*),
                                const void* context) {
  std::vector<CurveEdit> out = edits;
  for (CurveEdit& e : out) {
    if (e.channel.joint >= 0) continue;
    const Motion* m = motion_of(e.clip, context);
    if (!m) throw Error::General("clip " + e.clip + ": the file has no clip of that name");
    const size_t joints = m->raw ? 0 : size_t(std::max<int>(m->interpolated.total_bone_count, 0));
    for (size_t j = 0; j < joints && e.channel.joint < 0; ++j)
      if (NumberedJointName(j) == e.channel.joint_name) e.channel.joint = int(j);
    if (e.channel.joint < 0)
      throw Error::General(Where(e.clip, e.channel) + ": the motion has no joint of that name (names are " +
                           NumberedJointName(0) + " ...)");
  }
  return out;
}

std::map<std::string, StoredCurves> CurvesByClip(const std::vector<MotionClip>& clips) {
  std::map<std::string, StoredCurves> out;
  for (const MotionClip& c : clips)
    if (!c.motion->raw) out.emplace(c.name, StoredCurvesOf(*c.motion, {}, {}));
  return out;
}

}  // namespace curves_replace

Bytes ReplaceCurves(ByteView file, const std::vector<CurveEdit>& named_edits, ReplaceCurvesReport* report,
                    const Limits& limits) {
  using namespace curves_replace;
  ReplaceCurvesReport rep;
  Bytes out(file.begin(), file.end());
  if (!LooksLikeBar(file)) {  // a bare motion entry: one clip, "motion"
    const Motion motion = ParseMotion(file);
    const std::vector<CurveEdit> edits = Resolved(
        named_edits,
        [](const std::string& name, const void* m) { return name == "motion" ? static_cast<const Motion*>(m) : nullptr; },
        &motion);
    std::vector<const CurveEdit*> mine;
    for (const CurveEdit& e : edits) {
      if (e.clip != "motion") throw Error::General("clip " + e.clip + ": the file's one clip is named motion");
      mine.push_back(&e);
    }
    if (auto bytes = RewriteMotion(motion, "motion", mine, rep)) {
      const StoredCurves before = StoredCurvesOf(motion, {}, {});
      out = std::move(*bytes);
      Verify({{"motion", before}}, {{"motion", StoredCurvesOf(ParseMotion(out), {}, {})}}, edits);
    }
    if (report) *report = rep;
    return out;
  }
  const Bar bar = ParseBar(file, 0, limits);
  const std::vector<MotionClip> clips = MotionClips(bar);
  const std::vector<CurveEdit> edits = Resolved(
      named_edits,
      [](const std::string& name, const void* context) -> const Motion* {
        for (const MotionClip& c : *static_cast<const std::vector<MotionClip>*>(context))
          if (c.name == name) return c.motion;
        return nullptr;
      },
      &clips);
  // Edits by motion, in the file's order of clips.
  std::vector<std::pair<const MotionClip*, std::vector<const CurveEdit*>>> by_motion;
  for (const CurveEdit& e : edits) {
    const MotionClip* clip = nullptr;
    for (const MotionClip& c : clips)
      if (c.name == e.clip) clip = &c;
    if (!clip) throw Error::General("clip " + e.clip + ": the file has no clip of that name");
    auto it = std::find_if(by_motion.begin(), by_motion.end(), [&](const auto& p) { return p.first->motion == clip->motion; });
    if (it == by_motion.end()) by_motion.push_back({clip, {}}), it = by_motion.end() - 1;
    it->second.push_back(&e);
  }
  bool changed = false;
  for (const auto& [clip, mine] : by_motion) {
    // A motion is rewritten once, from the file as read; placing it re-reads the file
    // written so far (entries have moved), only when an earlier motion changed.
    if (auto bytes = RewriteMotion(*clip->motion, clip->name, mine, rep)) {
      const Bar current = changed ? ParseBar(out, 0, limits) : bar;
      const std::vector<MotionClip> now = changed ? MotionClips(current) : clips;
      const MotionClip* target = nullptr;
      for (const MotionClip& c : now)
        if (c.path == clip->path) target = &c;
      if (!target) throw Error::General("internal: clip " + clip->name + " not found again");
      out = Rebuilt(out, current, target->path, 0, *bytes);
      changed = true;
      // Once per changed motion: every clip that plays it changes with it.
      std::string others;
      for (const MotionClip& c : clips)
        if (c.motion == clip->motion && c.name != clip->name) others += (others.empty() ? "" : ", ") + c.name;
      if (!others.empty()) rep.notes.push_back("clip " + clip->name + " shares its motion with " + others + ": they change too");
    }
  }
  if (changed) {
    // Clips sharing an edited motion change with it.
    std::vector<CurveEdit> expected;
    for (const CurveEdit& e : edits) {
      const Motion* m = nullptr;
      for (const MotionClip& c : clips)
        if (c.name == e.clip) m = c.motion;
      for (const MotionClip& c : clips)
        if (c.motion == m) expected.push_back({c.name, e.channel});
    }
    const Bar written = ParseBar(out, 0, limits);
    Verify(CurvesByClip(clips), CurvesByClip(MotionClips(written)), expected);
  }
  if (report) *report = rep;
  return out;
}

}  // namespace animkit::kh2
