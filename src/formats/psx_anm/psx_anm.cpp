#include <animkit/formats/psx_anm.hpp>
#include <animkit/offline/sampling.hpp>

#include "formats/common/psx.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <set>

namespace animkit::psx_anm {

size_t Keyframe::byte_size() const {
  return 2 + ((flags & kFlagRotation) ? 6 : 0) + ((flags & kFlagScale) ? 6 : 0) + ((flags & kFlagPosition) ? 6 : 0);
}

File Parse(ByteView data) {
  ByteReader r(data, Endian::Little);
  File file;
  psx::ReadHeaderInto(r, file);
  const size_t frame_count = r.U16("the frame count");
  r.Count(frame_count + 1, 2, "frame offset table");
  std::vector<size_t> offsets(frame_count + 1);
  for (size_t i = 0; i <= frame_count; ++i) offsets[i] = size_t{r.U16("a frame offset")} * 2;
  const size_t table_end = r.tell();
  if (offsets[0] < table_end) {
    r.FailAt(6, "frame 0 starts at " + Hex(offsets[0]) + ", inside the header (which ends at " + Hex(table_end) + ")");
  }
  file.gap.assign(data.begin() + static_cast<std::ptrdiff_t>(table_end),
                  data.begin() + static_cast<std::ptrdiff_t>(std::min(offsets[0], data.size())));
  file.frames.resize(frame_count);
  for (size_t f = 0; f < frame_count; ++f) {
    const size_t begin = offsets[f], end = offsets[f + 1];
    if (end < begin) {
      r.FailAt(6 + 2 * (f + 1), "frame " + std::to_string(f + 1) + " offset " + Hex(end) + " is before frame " +
                                    std::to_string(f) + "'s (" + Hex(begin) + ")");
    }
    if (end > data.size()) {
      r.FailAt(6 + 2 * (f + 1), "frame " + std::to_string(f) + " ends at " + Hex(end) + ", past the end of the file (" +
                                    Hex(data.size()) + ")");
    }
    r.Seek(begin, "frame " + std::to_string(f));
    ByteReader fr = r.Sub(begin, end - begin, "frame " + std::to_string(f));
    while (fr.remaining() > 0) {
      Keyframe k;
      k.object = fr.U8("a keyframe's object index");
      k.flags = fr.U8("a keyframe's flags");
      fr.Require(k.byte_size() - 2, "frame " + std::to_string(f) + " keyframe for object " + std::to_string(k.object));
      auto read3 = [&](std::array<int16_t, 3>& v) {
        for (int16_t& c : v) c = fr.I16();
      };
      if (k.flags & kFlagRotation) read3(k.rotation);
      if (k.flags & kFlagScale) read3(k.scale);
      if (k.flags & kFlagPosition) read3(k.position);
      file.frames[f].keyframes.push_back(k);
    }
  }
  const size_t end = offsets[frame_count];
  if (end > data.size()) r.FailAt(6 + 2 * frame_count, "the end offset " + Hex(end) + " is past the end of the file");
  file.trailing.assign(data.begin() + static_cast<std::ptrdiff_t>(end), data.end());
  return file;
}

Bytes Serialize(const File& file) {
  ByteWriter w(Endian::Little);
  w.U16(file.marker);
  w.I16(file.unknown);
  if (file.frames.size() > 0xFFFF) throw Error::General("a PS1 ANM holds at most 65535 frames");
  w.U16(static_cast<uint16_t>(file.frames.size()));
  size_t offset = 6 + 2 * (file.frames.size() + 1) + file.gap.size();
  for (size_t f = 0; f <= file.frames.size(); ++f) {
    if (offset % 2 != 0 || offset / 2 > 0xFFFF) {
      throw Error::General("frame " + std::to_string(f) + " would start at " + Hex(offset) +
                           ", beyond the 16-bit offset table's reach (0x1fffe)");
    }
    w.U16(static_cast<uint16_t>(offset / 2));
    if (f < file.frames.size()) {
      for (const Keyframe& k : file.frames[f].keyframes) offset += k.byte_size();
    }
  }
  w.Append(file.gap);
  for (const Frame& frame : file.frames) {
    for (const Keyframe& k : frame.keyframes) {
      w.U8(k.object);
      w.U8(k.flags);
      auto write3 = [&](const std::array<int16_t, 3>& v) {
        for (int16_t c : v) w.I16(c);
      };
      if (k.flags & kFlagRotation) write3(k.rotation);
      if (k.flags & kFlagScale) write3(k.scale);
      if (k.flags & kFlagPosition) write3(k.position);
    }
  }
  w.Append(file.trailing);
  return w.Take();
}

void CheckObjects(const File& file, size_t object_count, const std::string& what) {
  // Frames follow the table and the gap back to back, as Serialize lays them out.
  size_t offset = 6 + 2 * (file.frames.size() + 1) + file.gap.size();
  for (size_t f = 0; f < file.frames.size(); ++f) {
    for (const Keyframe& k : file.frames[f].keyframes) {
      if (k.object >= object_count) {
        throw Error::AtOffset(offset, "frame " + std::to_string(f) + " keyframe animates object " +
                                          std::to_string(k.object) + ", but " + what + " has " +
                                          std::to_string(object_count) + " objects (0.." +
                                          (object_count ? std::to_string(object_count - 1) : std::string("none")) +
                                          ")");
      }
      offset += k.byte_size();
    }
  }
}

double FrameRateOf(const File& file, const DecodeSettings& settings) {
  return psx::RateFromHeader(file.unknown, settings.frame_rate);
}

namespace {

constexpr double kRadiansPerUnit = 2 * std::numbers::pi / kAngleUnitsPerTurn;

// Per-frame values of one field of one object, filling frames whose keyframe
// omits the field by the chosen rule. present[i] says frame i has the field.
std::vector<std::array<double, 3>> FillField(const std::vector<std::array<int16_t, 3>>& raw,
                                             const std::vector<bool>& present, MissingField rule) {
  const size_t n = raw.size();
  std::vector<std::array<double, 3>> out(n, {0, 0, 0});
  std::array<double, 3> held{0, 0, 0};
  for (size_t i = 0; i < n; ++i) {
    if (present[i]) {
      held = {double(raw[i][0]), double(raw[i][1]), double(raw[i][2])};
      out[i] = held;
      continue;
    }
    out[i] = held;
    if (rule == MissingField::Interpolate) {
      size_t prev = i, next = i;
      while (prev > 0 && !present[prev - 1]) --prev;
      while (next < n && !present[next]) ++next;
      if (prev > 0 && next < n) {  // between two frames that have the field
        const double u = double(i - (prev - 1)) / double(next - (prev - 1));
        for (int c = 0; c < 3; ++c) out[i][c] = raw[prev - 1][c] + (raw[next][c] - raw[prev - 1][c]) * u;
      } else if (prev == 0 && next < n) {  // before the first: that first value, as a curve holds its ends
        for (int c = 0; c < 3; ++c) out[i][c] = raw[next][c];
      }
    }
  }
  return out;
}

}  // namespace

Clip DecodeClip(const File& file, const DecodeSettings& settings, const std::vector<std::string>& names) {
  Clip clip;
  clip.SetFrames(file.frames.size(), FrameRateOf(file, settings));
  clip.metadata = {{kSourceFormatKey, "psx-anm"},
                   {metadata_keys::kHeaderUnknown, file.unknown},
                   {metadata_keys::kEuler, settings.euler == EulerOrder::XYZ ? "xyz" : "zyx"},
                   {metadata_keys::kMissingFields, settings.missing == MissingField::Hold ? "hold" : "interpolate"}};
  std::set<int> objects;
  for (const Frame& f : file.frames)
    for (const Keyframe& k : f.keyframes) objects.insert(k.object);

  const size_t n = file.frames.size();
  for (int object : objects) {
    JointTrack track;
    track.joint = static_cast<size_t>(object) < names.size() && !names[static_cast<size_t>(object)].empty()
                      ? names[static_cast<size_t>(object)]
                      : NumberedJointName(static_cast<uint64_t>(object));
    std::vector<std::array<int16_t, 3>> rot(n), scl(n), pos(n);
    std::vector<bool> has_rot(n), has_scl(n), has_pos(n);
    track.visible.assign(n, false);
    for (size_t i = 0; i < n; ++i) {
      // The last keyframe for an object in a frame wins, as a renderer drawing them in order would show.
      for (const Keyframe& k : file.frames[i].keyframes) {
        if (k.object != object) continue;
        track.visible[i] = true;
        if (k.flags & kFlagRotation) rot[i] = k.rotation, has_rot[i] = true;
        if (k.flags & kFlagScale) scl[i] = k.scale, has_scl[i] = true;
        if (k.flags & kFlagPosition) pos[i] = k.position, has_pos[i] = true;
      }
    }
    const auto rot_values = FillField(rot, has_rot, settings.missing);
    const auto pos_values = FillField(pos, has_pos, settings.missing);
    // Frames step: the game shows one pose per frame, so tracks are STEP and keep
    // only the frames where a value changes.
    track.translation.interpolation = track.rotation.interpolation = track.scale.interpolation = Interpolation::Step;
    for (size_t i = 0; i < n; ++i) {
      const Seconds t = FrameTime(i, clip.frame_rate);
      const Vec3 p{float(pos_values[i][0]), float(pos_values[i][1]), float(pos_values[i][2])};
      const Vec3 e{float(rot_values[i][0] * kRadiansPerUnit), float(rot_values[i][1] * kRadiansPerUnit),
                   float(rot_values[i][2] * kRadiansPerUnit)};
      const QuatXYZW q = QuatFromEuler(e, settings.euler);
      const Vec3 s = has_scl[i] ? Vec3{float(scl[i][0] / kScaleOne), float(scl[i][1] / kScaleOne),
                                       float(scl[i][2] / kScaleOne)}
                                : Vec3{1, 1, 1};
      auto push = [t](auto& tr, auto v) {
        if (tr.values.empty() || !(tr.values.back() == v)) {
          tr.Add(t, v);
        }
      };
      push(track.translation, p);
      push(track.rotation, q);
      push(track.scale, s);
    }
    if (std::all_of(track.visible.begin(), track.visible.end(), [](bool v) { return v; })) track.visible.clear();
    clip.tracks.push_back(std::move(track));
  }
  return clip;
}

namespace {

int16_t QuantizeChecked(double value, const std::string& what) {
  const double q = std::round(value);
  if (!(q >= -32768 && q <= 32767)) {
    throw Error::General(what + " " + std::to_string(value) + " does not fit in a 16-bit field");
  }
  return static_cast<int16_t>(q);
}

// The rotation as 16-bit angles (4096 a turn), the Euler solution nearest the angles
// written before for the object (readers interpolate the angles themselves), moved by
// whole turns back into the field's range when it would leave it. Updates previous.
std::array<int16_t, 3> ContinuousAngles(QuatXYZW q, EulerOrder order, std::optional<std::array<double, 3>>& previous,
                                        const std::string& joint) {
  std::array<double, 3> e;
  if (previous) {
    e = EulerNearest(q, order, *previous);
  } else {
    const Vec3 v = EulerFromQuat(q, order);
    e = {v.x, v.y, v.z};
  }
  std::array<int16_t, 3> out{};
  for (size_t k = 0; k < 3; ++k) {
    double units = std::round(e[k] / kRadiansPerUnit);
    if (units > 32767) units -= 4096 * std::ceil((units - 32767) / 4096);
    if (units < -32768) units += 4096 * std::ceil((-32768 - units) / 4096);
    out[k] = QuantizeChecked(units, joint + " rotation");
    e[k] = out[k] * kRadiansPerUnit;
  }
  previous = e;
  return out;
}

// Object index for a track: "#N" keeps N, a rest-skeleton joint keeps its index,
// anything else takes its position in the clip.
int ObjectIndexFor(const JointTrack& track, size_t position, const Skeleton* rest) {
  if (const auto object = ParseNumberedJointName(track.joint); object && *object <= INT32_MAX)
    return static_cast<int>(*object);
  if (rest) {
    int j = rest->Find(track.joint);
    if (j >= 0) return j;
  }
  return static_cast<int>(position);
}

}  // namespace

File EncodeClip(const Clip& clip, const DecodeSettings& settings, const Skeleton* rest) {
  File file;
  const double rate = clip.frame_rate > 0 ? clip.frame_rate : 60;
  const size_t frames = ClipFrameCount(clip, rate);
  if (frames > 0xFFFF) throw Error::General("clip '" + clip.name + "' has more frames than a PS1 ANM holds (65535)");
  file.unknown = clip.metadata.contains(metadata_keys::kHeaderUnknown) &&
                         clip.metadata[metadata_keys::kHeaderUnknown].is_number_integer()
                     ? static_cast<int16_t>(clip.metadata[metadata_keys::kHeaderUnknown].get<int>())
                     : static_cast<int16_t>(std::clamp(std::lround(rate), 1L, 240L));
  std::vector<int> objects;
  std::set<int> seen;
  for (size_t i = 0; i < clip.tracks.size(); ++i) {
    int object = ObjectIndexFor(clip.tracks[i], i, rest);
    if (object < 0 || object > 255) {
      throw Error::General("joint '" + clip.tracks[i].joint + "' maps to object " + std::to_string(object) +
                           "; a PS1 ANM addresses objects 0..255");
    }
    if (!seen.insert(object).second) {
      throw Error::General("two joints map to object " + std::to_string(object) + " ('" + clip.tracks[i].joint + "')");
    }
    objects.push_back(object);
  }
  // Encode in object order, as the game's files list them.
  std::vector<size_t> order(clip.tracks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return objects[a] < objects[b]; });

  std::vector<TransformTRS> pose(clip.tracks.size());
  std::vector<std::array<int16_t, 3>> held_rot(clip.tracks.size(), {0, 0, 0}), held_pos = held_rot;
  std::vector<std::optional<std::array<double, 3>>> written_angles(clip.tracks.size());  // radians, as stored
  const Skeleton* rest_for_sampling = rest;
  file.frames.resize(frames);
  for (size_t f = 0; f < frames; ++f) {
    SampleClipJob{&clip, rest_for_sampling, FrameTime(f, rate), pose}.Run();
    for (size_t i : order) {
      const JointTrack& track = clip.tracks[i];
      const TransformTRS& p = pose[i];
      if (!IsVisible(track, f) || (p.scale.x == 0 && p.scale.y == 0 && p.scale.z == 0)) continue;
      Keyframe k;
      k.object = static_cast<uint8_t>(objects[i]);
      const std::string joint = "joint '" + track.joint + "' frame " + std::to_string(f);
      const std::array<int16_t, 3> rot = ContinuousAngles(p.rotation, settings.euler, written_angles[i], joint);
      const std::array<int16_t, 3> scl{QuantizeChecked(p.scale.x * kScaleOne, joint + " scale"),
                                       QuantizeChecked(p.scale.y * kScaleOne, joint + " scale"),
                                       QuantizeChecked(p.scale.z * kScaleOne, joint + " scale")};
      const std::array<int16_t, 3> pos{QuantizeChecked(p.translation.x, joint + " translation"),
                                       QuantizeChecked(p.translation.y, joint + " translation"),
                                       QuantizeChecked(p.translation.z, joint + " translation")};
      // Under "hold", an omitted field repeats the last one written; under
      // "interpolate" omission would change neighbours, so both are always written.
      const bool hold = settings.missing == MissingField::Hold;
      if (!hold || rot != held_rot[i]) k.flags |= kFlagRotation, k.rotation = rot;
      if (scl != std::array<int16_t, 3>{4096, 4096, 4096}) k.flags |= kFlagScale, k.scale = scl;
      if (!hold || pos != held_pos[i]) k.flags |= kFlagPosition, k.position = pos;
      held_rot[i] = rot;
      held_pos[i] = pos;
      file.frames[f].keyframes.push_back(k);
    }
  }
  return file;
}

}  // namespace animkit::psx_anm
