// The KH2 evaluator: a motion that parses is planned (with and without constraints) and
// posed at a few key times, inside and outside its keys. Any input must end without a
// crash, a hang or a sanitizer report; a pose that cannot be evaluated is a warning.
#include <animkit/formats/kh2.hpp>

#include <cmath>
#include <limits>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  kh2::Motion m;
  try {
    m = kh2::ParseMotion(ByteView(data, size));
  } catch (const Error&) {
    return 0;
  }
  if (m.raw || m.placeholder) return 0;
  const kh2::InterpolatedMotion& im = m.interpolated;
  std::vector<kh2::ChannelValues> base(size_t(im.bone_count), {1, 1, 1, 0, 0, 0, 0, 0, 0});
  std::vector<int> parents(size_t(im.bone_count), -1);
  for (const kh2::BoneRecord& h : im.ik_helpers) {
    base.push_back(kh2::ChannelsFromBone(h));
    parents.push_back(h.parent);
  }
  for (const bool constraints : {true, false}) {
    const kh2::EvaluationPlan plan = kh2::PlanEvaluation(im, base, parents, {constraints, constraints});
    std::vector<kh2::ChannelValues> channels(plan.joint_count());
    std::vector<TransformTRS> model(plan.joint_count());
    std::vector<std::string> warnings;
    const float end = std::isfinite(im.frame_end) ? im.frame_end * 2 : 0;
    for (const float t : {0.0f, end / 2, end, -3.5f, 1e9f, std::numeric_limits<float>::quiet_NaN()}) {
      kh2::PoseJob job{&im, &plan, t, channels, model};
      job.warnings = &warnings;
      if (!job.Run()) std::abort();  // the outputs are sized for the plan: Run must accept them
    }
  }
  return 0;
}
