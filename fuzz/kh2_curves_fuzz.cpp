// The stored curves of KH2 files (`animkit curves`, `animkit curves-replace`): a file's curves
// are read, edited and written back into it, and the written file read again. An input is
// [mode][file size, u16 LE][KH2 file: BAR or bare motion][tail]; the tail is either the edits
// as JSON text (mode bit 0) or a stream of mutations applied to the file's own curves (keys'
// frames, values, slopes and interpolations, key counts, pre/post, joints, properties, clips).
// Mode bit 1 sends the mutated edits through their JSON (CurvesJson, ParseCurveEdits), as the
// CLI does. Any input must end without a crash, a hang or a sanitizer report; an edit the
// file cannot take is an animkit::Error.
#include "format_fuzz.hpp"

#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/curves.hpp>
#include <animkit/pipeline/curves.hpp>

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace {

using namespace animkit;

// The clips' curves as the CLI reads them (no skeleton: joints numbered).
std::vector<ClipCurves> ReadCurves(ByteView file, const Limits& limits) {
  std::vector<ClipCurves> out;
  if (!kh2::LooksLikeBar(file)) {
    const kh2::Motion motion = kh2::ParseMotion(file);
    if (!motion.raw && !motion.placeholder) out.push_back({"motion", kh2::StoredCurvesOf(motion, {}, {})});
    return out;
  }
  const kh2::Bar bar = kh2::ParseBar(file, 0, limits);
  for (const kh2::MotionClip& c : kh2::MotionClips(bar))
    if (!c.motion->raw) out.push_back({c.name, kh2::StoredCurvesOf(*c.motion, {}, {})});
  return out;
}

// What `animkit curves` does with the curves: its JSON, and each channel evaluated.
void Use(const std::vector<ClipCurves>& clips) {
  (void)DumpJson(CurvesJson(clips));
  for (const ClipCurves& c : clips)
    for (const StoredChannel& ch : c.curves.channels)
      for (double frame : {-7.5, 0.0, 1.25, 60.0, 1e6}) (void)EvaluateStoredChannel(ch, frame);
}

float SomeFloat(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0: return float(in.ConsumeIntegralInRange(-64, 64));
    case 1: return float(in.ConsumeIntegralInRange(-4096, 4096)) / 16.0f;
    case 2: return in.ConsumeFloatingPoint<float>();
    default: return in.ConsumeProbability<float>();
  }
}

// Changes the file's curves as an editor might (and as no editor should), within what
// ParseCurveEdits accepts: joints 0..32768 or by name, axes 0..2, known properties and cycles.
void Mutate(std::vector<ClipCurves>& clips, FuzzedDataProvider& in) {
  for (int op = 0; op < 24 && in.remaining_bytes() > 0; ++op) {
    if (clips.empty()) clips.push_back({"motion", {}});
    ClipCurves& clip = clips[in.ConsumeIntegralInRange<size_t>(0, clips.size() - 1)];
    std::vector<StoredChannel>& channels = clip.curves.channels;
    const int kind = in.ConsumeIntegralInRange(0, 13);
    if (kind == 12 || channels.empty()) {  // a channel the file may not have
      StoredChannel c;
      c.joint = in.ConsumeIntegralInRange(0, 40);
      c.property = static_cast<CurveProperty>(in.ConsumeIntegralInRange(0, 2));
      c.axis = in.ConsumeIntegralInRange(0, 2);
      for (size_t k = in.ConsumeIntegralInRange<size_t>(0, 4); k > 0; --k)
        c.keys.push_back({float(in.ConsumeIntegralInRange(0, 40)), SomeFloat(in), SomeFloat(in), SomeFloat(in),
                          static_cast<CurveInterpolation>(in.ConsumeIntegralInRange(0, 2))});
      channels.push_back(std::move(c));
      continue;
    }
    if (kind == 13) {  // a clip name the file may not have
      clip.clip = in.ConsumeBool() ? clips.front().clip : in.ConsumeRandomLengthString(8);
      continue;
    }
    StoredChannel& c = channels[in.ConsumeIntegralInRange<size_t>(0, channels.size() - 1)];
    std::vector<CurveKey>& keys = c.keys;
    CurveKey* key = keys.empty() ? nullptr : &keys[in.ConsumeIntegralInRange<size_t>(0, keys.size() - 1)];
    switch (kind) {
      case 0:
        if (key) key->value = in.ConsumeBool() ? key->value + SomeFloat(in) : SomeFloat(in);
        break;
      case 1:
        if (key) key->frame = in.ConsumeBool() ? float(in.ConsumeIntegralInRange(-4, 600)) : SomeFloat(in);
        break;
      case 2:
        if (key) key->interpolation = static_cast<CurveInterpolation>(in.ConsumeIntegralInRange(0, 2));
        break;
      case 3:
        if (key) (in.ConsumeBool() ? key->in_slope : key->out_slope) = SomeFloat(in);
        break;
      case 4:
        if (key) keys.erase(keys.begin() + (key - keys.data()));
        break;
      case 5:
        if (key) {
          CurveKey copy = *key;
          copy.frame += float(in.ConsumeIntegralInRange(-2, 3));
          keys.insert(keys.begin() + (key - keys.data()), copy);
        }
        break;
      case 6:
        keys.resize(in.ConsumeIntegralInRange<size_t>(0, 6));
        break;
      case 7:
        (in.ConsumeBool() ? c.pre : c.post) = static_cast<CurveCycle>(in.ConsumeIntegralInRange(0, 3));
        break;
      case 8:
        c.joint = in.ConsumeIntegralInRange(0, 1 << 15);
        break;
      case 9:  // by name: the file's numbering, or a name no joint has
        c.joint_name = in.ConsumeBool() ? NumberedJointName(size_t(in.ConsumeIntegralInRange(0, 40)))
                                        : in.ConsumeRandomLengthString(8);
        c.joint = in.ConsumeBool() ? -1 : c.joint;
        break;
      case 10:
        c.property = static_cast<CurveProperty>(in.ConsumeIntegralInRange(0, 2));
        c.axis = in.ConsumeIntegralInRange(0, 2);
        break;
      default:
        std::reverse(keys.begin(), keys.end());
        break;
    }
  }
}

std::vector<kh2::CurveEdit> EditsOf(const std::vector<ClipCurves>& clips) {
  std::vector<kh2::CurveEdit> edits;
  for (const ClipCurves& clip : clips)
    for (const StoredChannel& c : clip.curves.channels) edits.push_back({clip.clip, c});
  return edits;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const uint8_t mode = data[0];
  const size_t file_size = std::min(size - 3, size_t(data[1]) | size_t(data[2]) << 8);
  const ByteView file(data + 3, file_size);
  const uint8_t* tail = data + 3 + file_size;
  const size_t tail_size = size - 3 - file_size;
  const Limits limits = fuzz::FuzzOptions().limits();

  std::vector<ClipCurves> clips;
  try {
    clips = ReadCurves(file, limits);
    Use(clips);
  } catch (const Error&) {
    clips.clear();  // edits still go to ReplaceCurves, which must reject the file itself
  }

  std::vector<kh2::CurveEdit> edits;
  bool unedited = false;
  try {
    if (mode & 1) {
      const std::vector<ClipCurves> parsed =
          ParseCurveEdits(ParseJson(std::string_view(reinterpret_cast<const char*>(tail), tail_size)));
      edits = EditsOf(parsed);
    } else {
      FuzzedDataProvider in(tail, tail_size);
      unedited = tail_size == 0 && !(mode & 2);
      Mutate(clips, in);
      if (mode & 2) clips = ParseCurveEdits(ParseJson(DumpJson(CurvesJson(clips))));
      edits = EditsOf(clips);
    }
  } catch (const Error&) {
    return 0;
  }

  kh2::ReplaceCurvesReport report;
  Bytes written;
  try {
    written = kh2::ReplaceCurves(file, edits, &report, limits);
  } catch (const Error&) {
    return 0;
  }
  // The file's own curves submitted unedited change nothing (kh2/curves.hpp).
  if (unedited && !clips.empty() && !std::equal(written.begin(), written.end(), file.begin(), file.end())) {
    std::fprintf(stderr, "kh2 curves: the file's own curves written back changed the file\n");
    std::abort();
  }
  try {
    Use(ReadCurves(written, limits));
  } catch (const Error&) {
  }
  return 0;
}
