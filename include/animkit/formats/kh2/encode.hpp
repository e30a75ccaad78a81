// Kingdom Hearts II encoding: clips to motions (hermite curves fitted within a tolerance,
// or raw matrices), events to triggers, ANBs, and an edited clip into its template's slot.
// See docs/formats/kh2.md, "Encoding" and "Templates".
#pragma once

#include <animkit/formats/kh2/archive.hpp>

namespace animkit::kh2 {

struct EncodeSettings {
  bool raw = false;                  // write raw matrices instead of curves
  float tolerance = 1e-4f;           // rotation channels: largest error at any frame, radians
  float relative_tolerance = 1e-4f;  // translation/scale: relative to the channel's magnitude (at least 1)
};
struct EncodeReport {
  size_t bones = 0, curves = 0, keys = 0, initial_pose = 0, skipped_tracks = 0;
  size_t fitted_keys = 0;    // keys of the curves fitted from the clip (the rest came from a template)
  float tolerance_used = 0;  // raised above the setting where a curve needed more than 255 keys
  bool unchanged = false;    // the template's motion was kept: no pose moved beyond the tolerance
  // The tolerance every channel was fitted with because the asked one needed more keys,
  // values, tangents or key times than a motion's tables index (0: not raised).
  float table_tolerance = 0;
  // Joints a template's constraint, IK or expression drives whose pose in the clip differs
  // from the template's evaluated pose: their curves were kept, so the edit is not carried.
  std::vector<std::string> warnings;
};
// The rotation angle between two unit quaternions, in double and exact for tiny angles
// (the encoder's tolerance checks).
double RotationDifference(QuatXYZW a, QuatXYZW b);
// The clip's joints map to bones by "#N" or by skeleton order. Each animated channel
// becomes hermite keys fitted within the tolerance, a constant one an initial pose value.
// With a template (an interpolated motion), bone count, IK helpers (joints #bone_count..),
// constraints, limiters, expressions, joint table and header come from it; bones the clip
// does not animate or moves within the tolerance keep the template's curves; when no bone
// moved and the length is the template's, the template itself is returned (report.unchanged).
// template_as_input: the template's clip as the clip's own format gives it back
// (EncodeContext::template_as_input); a bone whose pose equals its pose there is unedited.
// Without it, a bone is compared with the template's evaluated pose.
Motion EncodeMotion(const Clip& clip, const Skeleton& skeleton, const EncodeSettings& settings,
                    EncodeReport* report = nullptr, const Motion* templ = nullptr,
                    const Clip* template_as_input = nullptr);
// Events as DecodeTriggers makes them (name matching the id in params[0]); others are
// skipped and counted in *skipped.
Triggers EncodeTriggers(const std::vector<Event>& events, double frame_rate, size_t* skipped = nullptr);
// An ANB: a BAR of one motion and one triggers entry.
Bar EncodeAnb(const Clip& clip, const Skeleton& skeleton, const EncodeSettings& settings,
              EncodeReport* report = nullptr);
// An ANB from a template ANB: its motion re-encoded against the template's, its triggers
// kept unless the clip's trigger events differ from them. *unchanged: both were kept (the
// template's bytes are then the answer).
Bar EncodeAnbFromTemplate(const Clip& clip, const Skeleton& skeleton, const EncodeSettings& settings, const Bar& templ,
                          EncodeReport* report, bool* unchanged, const Clip* template_as_input = nullptr);

}  // namespace animkit::kh2
