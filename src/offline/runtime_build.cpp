#include <animkit/core/error.hpp>
#include <animkit/offline/runtime_build.hpp>
#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/sampling.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace animkit {

namespace {

using runtime::Channel;
using runtime::FarEntry;
using runtime::kFar;

template <int W>
struct Key {
  float time;
  float v[W];
};

void Put(Key<3>& k, Vec3 v) { k.v[0] = v.x, k.v[1] = v.y, k.v[2] = v.z; }
void Put(Key<4>& k, QuatXYZW q) { k.v[0] = q.x, k.v[1] = q.y, k.v[2] = q.z, k.v[3] = q.w; }

template <int W, class T>
std::vector<Key<W>> TrackKeys(const Track<T>& track, T rest, const RuntimeBuildOptions& options,
                              const std::string& what) {
  std::vector<Key<W>> keys;
  auto add = [&](float time, T value) {
    Key<W> k{time, {}};
    Put(k, value);
    for (float f : k.v) {
      if (!std::isfinite(f)) throw Error::General(what + ": value is not finite");
    }
    keys.push_back(k);
  };
  const size_t n = std::min(track.times.size(), track.values.size());
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(track.times[i])) throw Error::General(what + ": key time is not finite");
    if (i > 0 && track.times[i] < track.times[i - 1]) {
      throw Error::General(what + ": key times decrease at key " + std::to_string(i));
    }
  }
  if (n == 0) {
    add(0, rest);
  } else {
    const bool hermite = track.interpolation == Interpolation::Hermite && track.in_tangents.size() >= n &&
                         track.out_tangents.size() >= n;
    for (size_t i = 0; i < n; ++i) {
      add(track.times[i], track.values[i]);
      if (i + 1 == n) break;
      const float t0 = track.times[i], t1 = track.times[i + 1];
      if (track.interpolation == Interpolation::Step) {
        add(t1, track.values[i]);  // holds until the next key, which then takes over at once
      } else if (hermite && t1 > t0) {
        const int parts = std::max(1, options.hermite_subdivisions);
        size_t cursor = i;
        for (int p = 1; p < parts; ++p) {
          const float t = t0 + (t1 - t0) * static_cast<float>(p) / static_cast<float>(parts);
          if (t > t0 && t < t1) add(t, SampleTrack(track, t, &cursor));
        }
      }
    }
  }
  if (keys.size() == 1) keys.push_back(keys.front());
  return keys;
}

size_t TimeIndex(const std::vector<float>& timepoints, float t) {
  return static_cast<size_t>(std::lower_bound(timepoints.begin(), timepoints.end(), t) - timepoints.begin());
}

// Lays the keys of every track out in the order the sampler needs them.
template <int W>
void BuildChannel(const std::vector<std::vector<Key<W>>>& tracks, const std::vector<float>& timepoints,
                  const std::vector<float>& marker_times, Channel& out) {
  const size_t n = tracks.size();
  struct Later {
    float needed;  // time of the key before it in its track
    uint32_t track;
    uint32_t index;
  };
  std::vector<Later> later;
  size_t total = 2 * n;
  for (size_t t = 0; t < n; ++t) {
    total += tracks[t].size() - 2;
    for (size_t k = 2; k < tracks[t].size(); ++k) {
      later.push_back({tracks[t][k - 1].time, static_cast<uint32_t>(t), static_cast<uint32_t>(k)});
    }
  }
  if (total > 0xFFFFFFF0u) throw Error::General("animation has too many keys for the runtime");
  std::sort(later.begin(), later.end(), [](const Later& a, const Later& b) {
    if (a.needed != b.needed) return a.needed < b.needed;
    if (a.track != b.track) return a.track < b.track;
    return a.index < b.index;
  });
  out.keys.resize(total);
  out.values.resize(total * W);
  out.previous.assign(total, 0);
  out.far_previous.clear();
  std::vector<uint32_t> last(n, 0);  // position of each track's latest key so far
  auto place = [&](size_t pos, uint32_t track, const Key<W>& key, bool first) {
    out.keys[pos] = {static_cast<uint16_t>(track), static_cast<uint16_t>(TimeIndex(timepoints, key.time))};
    std::copy(key.v, key.v + W, out.values.begin() + static_cast<ptrdiff_t>(pos * W));
    if (!first) {
      const size_t d = pos - last[track];
      if (d < kFar) {
        out.previous[pos] = static_cast<uint16_t>(d);
      } else {
        out.previous[pos] = kFar;
        out.far_previous.push_back({static_cast<uint32_t>(pos), last[track]});
      }
    }
    last[track] = static_cast<uint32_t>(pos);
  };
  for (size_t t = 0; t < n; ++t) place(t, static_cast<uint32_t>(t), tracks[t][0], true);
  for (size_t t = 0; t < n; ++t) place(n + t, static_cast<uint32_t>(t), tracks[t][1], false);
  for (size_t i = 0; i < later.size(); ++i) place(2 * n + i, later[i].track, tracks[later[i].track][later[i].index], false);

  // Seek markers: the state after playing to each marker's time.
  out.marker_cursor.clear();
  out.marker_right.clear();
  out.far_marker.clear();
  for (size_t t = 0; t < n; ++t) last[t] = static_cast<uint32_t>(n + t);
  size_t scanned = 0;
  for (size_t m = 0; m < marker_times.size(); ++m) {
    while (scanned < later.size() && later[scanned].needed <= marker_times[m]) {
      last[later[scanned].track] = static_cast<uint32_t>(2 * n + scanned);
      ++scanned;
    }
    const size_t cursor = 2 * n + scanned;
    out.marker_cursor.push_back(static_cast<uint32_t>(cursor));
    for (size_t t = 0; t < n; ++t) {
      const size_t d = cursor - last[t];
      if (d < kFar) {
        out.marker_right.push_back(static_cast<uint16_t>(d));
      } else {
        out.marker_right.push_back(kFar);
        out.far_marker.push_back({static_cast<uint32_t>(m * n + t), last[t]});
      }
    }
  }
}

}  // namespace

namespace {

runtime::Animation BuildMatrixRule(const Clip& clip, const Skeleton& skeleton, const RuntimeBuildOptions& options) {
  struct Source {
    const JointTrack* track;
    TransformTRS rest;
    std::string name;
  };
  std::vector<Source> sources;
  if (!skeleton.empty()) {
    for (const Joint& j : skeleton.joints) sources.push_back({clip.FindTrack(j.name), j.rest, j.name});
  } else {
    for (const JointTrack& t : clip.tracks) sources.push_back({&t, TransformTRS{}, t.joint});
  }
  if (sources.size() > static_cast<size_t>(runtime::kMaxTracks)) {
    throw Error::General("animation has " + std::to_string(sources.size()) + " tracks; the runtime takes at most " +
                         std::to_string(runtime::kMaxTracks));
  }
  std::vector<std::vector<Key<3>>> translations, scales;
  std::vector<std::vector<Key<4>>> rotations;
  const Track<Vec3> no_vec3;
  const Track<QuatXYZW> no_quat;
  for (const Source& s : sources) {
    const std::string what = "track '" + s.name + "'";
    translations.push_back(TrackKeys<3>(s.track ? s.track->translation : no_vec3, s.rest.translation, options,
                                        what + " translation"));
    rotations.push_back(
        TrackKeys<4>(s.track ? s.track->rotation : no_quat, s.rest.rotation, options, what + " rotation"));
    scales.push_back(TrackKeys<3>(s.track ? s.track->scale : no_vec3, s.rest.scale, options, what + " scale"));
  }

  runtime::Animation a;
  a.name = clip.name;
  a.num_tracks = static_cast<int>(sources.size());
  // Distinct key times (0 and -0 are one time).
  std::vector<float>& tp = a.timepoints;
  for (const auto& t : translations) for (const auto& k : t) tp.push_back(k.time);
  for (const auto& t : rotations) for (const auto& k : t) tp.push_back(k.time);
  for (const auto& t : scales) for (const auto& k : t) tp.push_back(k.time);
  std::sort(tp.begin(), tp.end());
  tp.erase(std::unique(tp.begin(), tp.end()), tp.end());
  if (tp.size() > runtime::kMaxTimepoints) {
    throw Error::General("animation has " + std::to_string(tp.size()) + " distinct key times; the runtime takes at most " +
                         std::to_string(runtime::kMaxTimepoints));
  }
  const float last_time = tp.empty() ? 0.0f : tp.back();
  a.duration = std::max(clip.duration, last_time);
  if (options.marker_interval > 0 && std::isfinite(options.marker_interval) && !tp.empty()) {
    a.marker_interval = options.marker_interval;
    for (size_t m = 1;; ++m) {
      const float t = static_cast<float>(static_cast<double>(m) * options.marker_interval);
      if (!(t < last_time)) break;
      if (a.marker_times.empty() || t > a.marker_times.back()) a.marker_times.push_back(t);
    }
  }
  BuildChannel<3>(translations, tp, a.marker_times, a.translations);
  BuildChannel<4>(rotations, tp, a.marker_times, a.rotations);
  BuildChannel<3>(scales, tp, a.marker_times, a.scales);
  return a;
}

}  // namespace

runtime::Animation BuildRuntimeAnimation(const Clip& clip, const Skeleton& skeleton, const RuntimeBuildOptions& options) {
  if (clip.scale_inheritance == ScaleInheritance::Matrix) return BuildMatrixRule(clip, skeleton, options);
  Clip matrix_rule = clip;  // the runtime composes matrices: the closest matrix-rule locals, as glTF gets
  ConvertScaleInheritance(skeleton, matrix_rule, ScaleInheritance::Matrix);
  return BuildMatrixRule(matrix_rule, skeleton, options);
}

runtime::Skeleton BuildRuntimeSkeleton(const Skeleton& skeleton) {
  const size_t n = skeleton.joints.size();
  if (n > static_cast<size_t>(runtime::kMaxTracks)) throw Error::General("skeleton has too many joints for the runtime");
  runtime::Skeleton s;
  s.rest_poses.resize((n + 3) / 4);
  for (runtime::SoaTransform& soa : s.rest_poses) {
    for (int l = 0; l < 4; ++l) runtime::SetTransform(&soa, l, {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}});
  }
  for (size_t i = 0; i < n; ++i) {
    const Joint& j = skeleton.joints[i];
    if (j.parent < -1 || j.parent >= static_cast<int>(i)) {
      throw Error::General("joint '" + j.name + "': its parent does not come before it");
    }
    s.parents.push_back(static_cast<int16_t>(j.parent));
    s.names.push_back(j.name);
    const TransformTRS& r = j.rest;
    runtime::SetTransform(s.rest_poses.data(), static_cast<int>(i),
                          {{r.translation.x, r.translation.y, r.translation.z},
                           {r.rotation.x, r.rotation.y, r.rotation.z, r.rotation.w},
                           {r.scale.x, r.scale.y, r.scale.z}});
  }
  return s;
}

Skeleton FlatSkeleton(const Clip& clip) {
  Skeleton s;
  for (const JointTrack& t : clip.tracks) s.joints.push_back({t.joint, -1, {}});
  return s;
}

}  // namespace animkit
