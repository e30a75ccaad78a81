// The playback runtime against a naive evaluator written here: exact source keys at key
// times, lerp / shortest-path nlerp between them, for playback forward, backward,
// looping and random access; local-to-model against a plain matrix product.
#include "support/test_support.hpp"

#include <animkit/runtime/local_to_model_job.hpp>
#include <animkit/runtime/sampling_job.hpp>
#include <animkit/offline/runtime_build.hpp>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <array>
#include <bit>
#include <fstream>
#include <cmath>
#include <vector>

namespace animkit {
namespace {

using runtime::SoaTransform;

// ---- The naive evaluator: straight from the clip's keys. ----

template <size_t W>
using Val = std::array<float, W>;

Val<3> ToVal(Vec3 v) { return {v.x, v.y, v.z}; }
Val<4> ToVal(QuatXYZW q) { return {q.x, q.y, q.z, q.w}; }

struct Expect {
  bool at_key = false;  // t is one of the track's key times: the value must be that key, bit for bit
  std::vector<float> value;
};

template <class T>
Expect Naive(const Track<T>& track, T rest, float t) {
  auto out = [](auto v, bool exact) { return Expect{exact, std::vector<float>(v.begin(), v.end())}; };
  if (track.empty()) return out(ToVal(rest), true);
  const auto& times = track.times;
  const size_t n = times.size();
  if (t < times.front()) return out(ToVal(track.values.front()), false);
  // The last key at or before t (the later one where two keys share a time).
  size_t k = 0;
  while (k + 1 < n && times[k + 1] <= t) ++k;
  if (t == times[k] || k + 1 == n) return out(ToVal(track.values[k]), t == times[k]);
  if (track.interpolation == Interpolation::Step) return out(ToVal(track.values[k]), false);
  const float u = (t - times[k]) / (times[k + 1] - times[k]);
  auto a = ToVal(track.values[k]);
  auto b = ToVal(track.values[k + 1]);
  if constexpr (std::is_same_v<T, QuatXYZW>) {
    float dot = 0;
    for (int i = 0; i < 4; ++i) dot += a[i] * b[i];
    if (dot < 0) for (float& f : b) f = -f;
    double len = 0;
    Val<4> q;
    for (int i = 0; i < 4; ++i) q[i] = a[i] + (b[i] - a[i]) * u, len += double(q[i]) * q[i];
    for (float& f : q) f = static_cast<float>(f / std::sqrt(len));
    return out(q, false);
  } else {
    Val<3> v;
    for (int i = 0; i < 3; ++i) v[i] = a[i] + (b[i] - a[i]) * u;
    return out(v, false);
  }
}

// Checks one sampled pose against the naive evaluator; counts the checks at key times.
void CheckPose(const Clip& clip, const Skeleton& skeleton, std::span<const SoaTransform> pose, float t,
               const std::string& where, int* exact_count = nullptr) {
  int exact = 0;
  for (size_t j = 0; j < skeleton.joints.size(); ++j) {
    const JointTrack* track = clip.FindTrack(skeleton.joints[j].name);
    const TransformTRS& rest = skeleton.joints[j].rest;
    const runtime::Transform got = runtime::GetTransform(pose.data(), static_cast<int>(j));
    const Track<Vec3> none3;
    const Track<QuatXYZW> none4;
    const Expect e[3] = {Naive(track ? track->translation : none3, rest.translation, t),
                         Naive(track ? track->rotation : none4, rest.rotation, t),
                         Naive(track ? track->scale : none3, rest.scale, t)};
    const float* g[3] = {got.t, got.r, got.s};
    for (int c = 0; c < 3; ++c) {
      for (size_t i = 0; i < e[c].value.size(); ++i) {
        if (e[c].at_key) {
          ASSERT_EQ(std::bit_cast<uint32_t>(g[c][i]), std::bit_cast<uint32_t>(e[c].value[i]))
              << where << " t=" << t << " joint " << j << " channel " << c << " component " << i << ": "
              << g[c][i] << " vs key " << e[c].value[i];
        } else {
          ASSERT_NEAR(g[c][i], e[c].value[i], 2e-6f * std::max(1.0f, std::fabs(e[c].value[i])))
              << where << " t=" << t << " joint " << j << " channel " << c << " component " << i;
        }
      }
      exact += e[c].at_key;
    }
  }
  if (exact_count) *exact_count += exact;
}

// A synthetic clip (13 joints: not a multiple of 4) made irregular: a sparse, offset
// rotation track; a single-key track; a joint without scale keys; a STEP track; a joint
// with no track at all; keys with the same time.
struct TestClip {
  Skeleton skeleton;
  Clip clip;
};

TestClip MakeClip() {
  SyntheticSpec spec;
  spec.joints = 13;
  spec.frames = 60;
  TestClip c;
  c.skeleton = SyntheticSkeleton(spec);
  c.clip = SyntheticClip(c.skeleton, spec);
  auto& tracks = c.clip.tracks;
  {
    Track<QuatXYZW>& r = tracks[3].rotation;
    Track<QuatXYZW> sparse;
    for (size_t i = 2; i < r.size(); i += 7) {
      sparse.times.push_back(r.times[i] + 0.01f);
      // Far-apart keys whose dot product is negative: the shortest path flips one.
      sparse.values.push_back(i % 2 ? r.values[i] : QuatXYZW{-r.values[i].x, -r.values[i].y, -r.values[i].z, -r.values[i].w});
    }
    r = sparse;
  }
  tracks[5].translation.times = {0.5f};
  tracks[5].translation.values = {{1, 2, 3}};
  tracks[6].scale = {};
  tracks[7].translation.interpolation = Interpolation::Step;
  tracks[8].scale.times[10] = tracks[8].scale.times[11];  // two keys at one time
  tracks.erase(tracks.begin() + 9);
  return c;
}

struct Player {
  runtime::Animation animation;
  runtime::SamplingContext context;
  std::vector<SoaTransform> pose;
  explicit Player(const TestClip& c, float marker_interval = 1.0f) {
    RuntimeBuildOptions o;
    o.marker_interval = marker_interval;
    animation = BuildRuntimeAnimation(c.clip, c.skeleton, o);
    context.Resize(animation.num_tracks);
    pose.resize(static_cast<size_t>(animation.num_soa_tracks()));
  }
  void Sample(float t) {
    runtime::SamplingJob job{&animation, &context, t, pose};
    ASSERT_TRUE(job.Run());
  }
};

// Key times, midpoints and odd times, ascending, beyond both ends.
std::vector<float> PlaybackTimes(const Clip& clip) {
  std::vector<float> times = {-0.5f, 0.0f};
  for (size_t f = 0; f + 1 < clip.frame_count; ++f) {
    const float a = FrameTime(f, clip.frame_rate), b = FrameTime(f + 1, clip.frame_rate);
    times.insert(times.end(), {a, a + (b - a) * 0.25f, a + (b - a) * 0.5f, a + (b - a) * 0.9f});
  }
  for (const JointTrack& t : clip.tracks) {
    times.insert(times.end(), t.rotation.times.begin(), t.rotation.times.end());
  }
  times.insert(times.end(), {0.5f, clip.duration, clip.duration + 1});
  std::sort(times.begin(), times.end());
  return times;
}

TEST(RuntimeSampling, BuildsAValidAnimation) {
  const TestClip c = MakeClip();
  Player p(c);
  EXPECT_TRUE(p.animation.Validate());
  EXPECT_EQ(p.animation.num_tracks, 13);
  EXPECT_EQ(p.animation.num_soa_tracks(), 4);
  EXPECT_GT(p.animation.marker_times.size(), 0u);
  EXPECT_LE(static_cast<double>(p.animation.SizeBytes()) / static_cast<double>(p.animation.num_keys()), 24.0);
}

TEST(RuntimeSampling, PlaybackForwardMatchesTheKeysAndTheNaiveEvaluator) {
  const TestClip c = MakeClip();
  Player p(c);
  int exact = 0;
  for (float t : PlaybackTimes(c.clip)) {
    p.Sample(t);
    CheckPose(c.clip, c.skeleton, p.pose, t, "forward", &exact);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(exact, 1000);  // many checks landed on key times
}

TEST(RuntimeSampling, PlaybackBackward) {
  const TestClip c = MakeClip();
  Player p(c);
  std::vector<float> times = PlaybackTimes(c.clip);
  std::reverse(times.begin(), times.end());
  for (float t : times) {
    p.Sample(t);
    CheckPose(c.clip, c.skeleton, p.pose, t, "backward");
    if (HasFatalFailure()) return;
  }
}

TEST(RuntimeSampling, PlaybackBackAndForth) {
  const TestClip c = MakeClip();
  Player p(c);
  const std::vector<float> times = PlaybackTimes(c.clip);
  size_t i = 0;
  for (int step = 0; step < 600; ++step) {
    // Three steps forward, two back: a scrubbing cursor.
    i = std::min(times.size() - 1, step % 5 < 3 ? i + 1 : (i > 0 ? i - 1 : 0));
    p.Sample(times[i]);
    CheckPose(c.clip, c.skeleton, p.pose, times[i], "scrub");
    if (HasFatalFailure()) return;
  }
}

TEST(RuntimeSampling, Looping) {
  const TestClip c = MakeClip();
  Player p(c);
  const double duration = c.clip.duration;
  for (int i = 0; i < 400; ++i) {
    // 40 samples per second, wrapping several times; every 3rd frame time exactly.
    const float t = i % 3 == 0 ? FrameTime(static_cast<size_t>(i) % c.clip.frame_count, c.clip.frame_rate)
                               : static_cast<float>(std::fmod(i * 0.025, duration));
    p.Sample(t);
    CheckPose(c.clip, c.skeleton, p.pose, t, "loop");
    if (HasFatalFailure()) return;
  }
}

TEST(RuntimeSampling, RandomAccess) {
  const TestClip c = MakeClip();
  for (float interval : {0.0f, 0.1f, 0.25f, 1.0f}) {
    Player p(c, interval);
    ASSERT_TRUE(p.animation.Validate());
    const std::vector<float> times = PlaybackTimes(c.clip);
    uint32_t rng = 99;
    for (int i = 0; i < 500; ++i) {
      rng = rng * 1664525u + 1013904223u;
      const float t = times[(rng >> 8) % times.size()];
      p.Sample(t);
      CheckPose(c.clip, c.skeleton, p.pose, t, "random, markers every " + std::to_string(interval) + " s");
      if (HasFatalFailure()) return;
    }
  }
}

TEST(RuntimeSampling, EveryWayOfGettingThereGivesTheSameBits) {
  const TestClip c = MakeClip();
  Player a(c), b(c, 0.1f);
  const float t = 1.2345f;
  a.Sample(1.9f);  // from later, stepping back
  a.Sample(t);
  b.Sample(t);  // seek
  EXPECT_EQ(0, std::memcmp(a.pose.data(), b.pose.data(), a.pose.size() * sizeof(SoaTransform)));
}

// Offsets past 16 bits: a track whose keys lie more than 65535 keys apart in the
// time-ordered layout goes through the far tables, for stepping back and for markers.
TEST(RuntimeSampling, FarTables) {
  TestClip c;
  Clip& clip = c.clip;
  clip.SetFrames(250, 30);
  for (int j = 0; j < 301; ++j) {
    c.skeleton.joints.push_back({"j" + std::to_string(j), -1, {}});
    JointTrack t;
    t.joint = "j" + std::to_string(j);
    if (j == 0) {
      t.translation.times = {0, 8.2f, 8.25f};
      t.translation.values = {{0, 0, 0}, {1, 1, 1}, {2, 0, 2}};
    } else {
      for (size_t f = 0; f < 250; ++f) {
        t.translation.Add(FrameTime(f, 30), {float(j), float(f), float(j * f % 7)});
      }
    }
    clip.tracks.push_back(t);
  }
  Player p(c);
  ASSERT_TRUE(p.animation.Validate());
  EXPECT_FALSE(p.animation.translations.far_previous.empty());
  EXPECT_FALSE(p.animation.translations.far_marker.empty());
  for (float t : {8.3f, 8.22f, 8.2f, 7.9f, 3.0f, 8.24f, 8.1f, 8.21f, 8.25f, 0.0f}) {
    p.Sample(t);
    CheckPose(clip, c.skeleton, p.pose, t, "far");
    if (HasFatalFailure()) return;
  }
}

TEST(RuntimeSampling, RejectsBadInputs) {
  const TestClip c = MakeClip();
  Player p(c);
  runtime::SamplingContext small(4);
  EXPECT_FALSE((runtime::SamplingJob{&p.animation, &small, 0, p.pose}.Run()));
  EXPECT_FALSE((runtime::SamplingJob{&p.animation, &p.context, 0, std::span(p.pose).first(2)}.Run()));
  EXPECT_FALSE((runtime::SamplingJob{&p.animation, &p.context, NAN, p.pose}.Run()));

  runtime::Animation bad = p.animation;
  bad.rotations.keys[40].track = 200;
  EXPECT_FALSE(bad.Validate());
  bad = p.animation;
  bad.scales.values.pop_back();
  EXPECT_FALSE(bad.Validate());
  bad = p.animation;
  bad.translations.previous[30] += 1;
  EXPECT_FALSE(bad.Validate());
  bad = p.animation;
  std::swap(bad.translations.keys[40], bad.translations.keys[60]);
  EXPECT_FALSE(bad.Validate());
  bad = p.animation;
  bad.rotations.marker_cursor[0] += 1;
  EXPECT_FALSE(bad.Validate());

  Clip decreasing = c.clip;
  std::swap(decreasing.tracks[2].translation.times[3], decreasing.tracks[2].translation.times[4]);
  EXPECT_THROW(BuildRuntimeAnimation(decreasing, c.skeleton), Error);
  Clip nan = c.clip;
  nan.tracks[1].scale.values[2].y = NAN;
  EXPECT_THROW(BuildRuntimeAnimation(nan, c.skeleton), Error);
}

TEST(RuntimeSampling, HermiteTracksPassThroughTheirKeys) {
  Clip clip;
  JointTrack t;
  t.joint = "a";
  t.translation.interpolation = Interpolation::Hermite;
  t.translation.times = {0, 1, 2};
  t.translation.values = {{0, 0, 0}, {1, 2, 3}, {0, 1, 0}};
  t.translation.in_tangents = t.translation.out_tangents = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  clip.tracks.push_back(t);
  const runtime::Animation a = BuildRuntimeAnimation(clip, {});
  runtime::SamplingContext ctx(1);
  std::vector<SoaTransform> pose(1);
  for (float time : {0.0f, 1.0f, 2.0f, 0.5f, 1.5f}) {
    ASSERT_TRUE((runtime::SamplingJob{&a, &ctx, time, pose}.Run()));
    const Vec3 want = SampleTrack(t.translation, time);
    EXPECT_EQ(pose[0].tx[0], want.x) << time;
    EXPECT_EQ(pose[0].ty[0], want.y) << time;
    EXPECT_EQ(pose[0].tz[0], want.z) << time;
  }
}

// ---- Local-to-model ----

void ExpectNearMatrix(const Mat4& want, const runtime::Float4x4& got, const std::string& where) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) {
      EXPECT_NEAR(got.m[c * 4 + r], want.m[c][r], 2e-5f * std::max(1.0f, std::fabs(want.m[c][r])))
          << where << " [" << c << "][" << r << "]";
    }
}

TEST(RuntimeLocalToModel, EqualsThePlainMatrixProduct) {
  const TestClip c = MakeClip();
  Player p(c);
  p.Sample(0.77f);
  const runtime::Skeleton skeleton = BuildRuntimeSkeleton(c.skeleton);
  ASSERT_TRUE(skeleton.Validate());
  const size_t n = c.skeleton.joints.size();
  std::vector<runtime::Float4x4> model(n);
  ASSERT_TRUE((runtime::LocalToModelJob{&skeleton, nullptr, p.pose, model}.Run()));
  // The naive product: M_j = M_parent * T * R * S.
  std::vector<Mat4> want(n);
  for (size_t j = 0; j < n; ++j) {
    const runtime::Transform l = runtime::GetTransform(p.pose.data(), static_cast<int>(j));
    const TransformTRS trs{{l.t[0], l.t[1], l.t[2]}, {l.r[0], l.r[1], l.r[2], l.r[3]}, {l.s[0], l.s[1], l.s[2]}};
    const int parent = c.skeleton.joints[j].parent;
    want[j] = parent < 0 ? MatrixFromTRS(trs) : Multiply(want[static_cast<size_t>(parent)], MatrixFromTRS(trs));
    ExpectNearMatrix(want[j], model[j], "joint " + std::to_string(j));
  }

  // A joint range in two runs gives the same matrices.
  std::vector<runtime::Float4x4> split(n);
  ASSERT_TRUE((runtime::LocalToModelJob{&skeleton, nullptr, p.pose, split, 0, 6}.Run()));
  ASSERT_TRUE((runtime::LocalToModelJob{&skeleton, nullptr, p.pose, split, 6, -1}.Run()));
  EXPECT_EQ(0, std::memcmp(split.data(), model.data(), n * sizeof(runtime::Float4x4)));

  // A root matrix multiplies everything.
  const Mat4 root_m = MatrixFromTRS({{1, 2, 3}, AxisAngle({0, 1, 0}, 0.5f), {2, 2, 2}});
  runtime::Float4x4 root;
  for (int col = 0; col < 4; ++col)
    for (int r = 0; r < 4; ++r) root.m[col * 4 + r] = root_m.m[col][r];
  std::vector<runtime::Float4x4> rooted(n);
  ASSERT_TRUE((runtime::LocalToModelJob{&skeleton, &root, p.pose, rooted}.Run()));
  for (size_t j = 0; j < n; ++j) ExpectNearMatrix(Multiply(root_m, want[j]), rooted[j], "rooted joint " + std::to_string(j));

  EXPECT_FALSE((runtime::LocalToModelJob{&skeleton, nullptr, p.pose, std::span(model).first(3)}.Run()));
  EXPECT_FALSE((runtime::LocalToModelJob{&skeleton, nullptr, p.pose, model, 5, 3}.Run()));
}

TEST(RuntimeLocalToModel, RestPosesAndParentsFromTheSkeleton) {
  const TestClip c = MakeClip();
  const runtime::Skeleton s = BuildRuntimeSkeleton(c.skeleton);
  ASSERT_EQ(s.num_joints(), 13);
  for (int j = 0; j < 13; ++j) {
    EXPECT_EQ(s.parents[static_cast<size_t>(j)], c.skeleton.joints[static_cast<size_t>(j)].parent);
    const runtime::Transform r = runtime::GetTransform(s.rest_poses.data(), j);
    EXPECT_EQ(r.r[3], c.skeleton.joints[static_cast<size_t>(j)].rest.rotation.w);
  }
  Skeleton bad = c.skeleton;
  bad.joints[2].parent = 7;
  EXPECT_THROW(BuildRuntimeSkeleton(bad), Error);
}

// ---- The bench verb ----

TEST(RuntimeBenchCli, TimesAGltfClip) {
  SyntheticSpec spec;
  spec.joints = 16;
  spec.frames = 31;
  Scene scene;
  scene.skeleton = SyntheticSkeleton(spec);
  scene.clips.push_back(SyntheticClip(scene.skeleton, spec));
  const std::string path = (test::TempDir("runtime-bench") / "clip.glb").string();
  WriteFileAtomic(path, ExportGltf(scene, {}));
  for (const char* mode : {"playback", "random"}) {
    std::string out, err;
    ASSERT_EQ(0, test::RunCli("bench " + path + " --mode " + mode + " --l2m --seconds 0.05", &out, &err)) << err;
    const nlohmann::json j = nlohmann::json::parse(out);
    EXPECT_EQ(j["mode"], mode);
    EXPECT_EQ(j["joints"], 16);
    // Rotation and scale of every joint and the root's translation at every frame; the other
    // joints' translations never leave their rest, so the glb has no channel for them and
    // the runtime holds their rest as two keys.
    EXPECT_EQ(j["keys"], 16 * 2 * 31 + 31 + 15 * 2);
    EXPECT_GT(j["runtime_bytes"].get<double>(), 16 * 31 * 40.0);
    EXPECT_LE(j["bytes_per_key"].get<double>(), 24.0);
    EXPECT_GT(j["ns_per_pose"].get<double>(), 0.0);
    EXPECT_NEAR(j["ns_per_joint"].get<double>() * 16, j["ns_per_pose"].get<double>(), 1e-6);
    EXPECT_EQ(j["ns_per_pose"], j["sample_l2m"]["ns_per_pose"]);
    EXPECT_GT(j["sample"]["ns_per_joint"].get<double>(), 0.0);
  }
  std::string err;
  EXPECT_EQ(1, test::RunCli("bench " + path + " --clip nope", nullptr, &err));
  EXPECT_NE(err.find("no clip named"), std::string::npos) << err;
}

}  // namespace
}  // namespace animkit

namespace animkit {
namespace {

// The runtime includes nothing of the offline library: only its own headers and the
// standard library.
TEST(RuntimeIsolation, IncludesOnlyTheStandardLibraryAndItself) {
  namespace fs = std::filesystem;
  int files = 0;
  for (const char* dir : {"include/animkit/runtime", "src/runtime"}) {
    for (const auto& entry : fs::directory_iterator(test::SourcePath(dir))) {
      std::ifstream in(entry.path());
      std::string line;
      ++files;
      while (std::getline(in, line)) {
        if (line.rfind("#include", 0) != 0) continue;
        const bool runtime_header = line.find("<animkit/runtime/") != std::string::npos;
        const bool local = line.find('"') != std::string::npos && line.find('/') == std::string::npos;
        const bool standard = line.find('<') != std::string::npos && line.find('/') == std::string::npos &&
                              line.find('.') == std::string::npos;
        const bool sse = line.find("<emmintrin.h>") != std::string::npos;
        EXPECT_TRUE(runtime_header || local || standard || sse) << entry.path() << ": " << line;
      }
    }
  }
  EXPECT_GE(files, 6);
}

}  // namespace
}  // namespace animkit
