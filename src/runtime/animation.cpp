#include <animkit/runtime/animation.hpp>

#include <algorithm>
#include <cmath>

namespace animkit::runtime {

namespace {

template <class T>
size_t Bytes(const std::vector<T>& v) {
  return v.size() * sizeof(T);
}

// Looks a far entry up; false when absent.
bool FindFar(const std::vector<FarEntry>& table, uint32_t key, uint32_t* value) {
  auto it = std::lower_bound(table.begin(), table.end(), key, [](const FarEntry& e, uint32_t k) { return e.key < k; });
  if (it == table.end() || it->key != key) return false;
  *value = it->value;
  return true;
}

bool SortedUnique(const std::vector<FarEntry>& table) {
  for (size_t i = 1; i < table.size(); ++i) {
    if (!(table[i - 1].key < table[i].key)) return false;
  }
  return true;
}

bool ValidateChannel(const Channel& c, int width, int n, const std::vector<float>& timepoints,
                     const std::vector<float>& marker_times) {
  const size_t count = c.keys.size();
  const size_t un = static_cast<size_t>(n);
  if (c.width != width || c.values.size() != count * static_cast<size_t>(width) || c.previous.size() != count) {
    return false;
  }
  if (count < 2 * un || count > 0xFFFFFFF0u) return false;
  if (!SortedUnique(c.far_previous) || !SortedUnique(c.far_marker)) return false;
  for (const float v : c.values) {
    if (!std::isfinite(v)) return false;
  }
  // Every key's track and time in range; the first two rows in track order; each key's
  // previous key is the latest earlier key of its track; later keys sorted by the time
  // of their previous key (the time they are needed).
  std::vector<uint32_t> last(un, 0);
  float needed_before = -INFINITY;
  std::vector<float> needed(count, -INFINITY);
  for (size_t i = 0; i < count; ++i) {
    const KeyHeader h = c.keys[i];
    if (h.track >= un || h.time >= timepoints.size()) return false;
    if (i < 2 * un && h.track != i % un) return false;
    if (i < un) {
      last[h.track] = static_cast<uint32_t>(i);
      continue;
    }
    uint32_t prev = 0;
    if (c.previous[i] == kFar) {
      if (!FindFar(c.far_previous, static_cast<uint32_t>(i), &prev)) return false;
    } else {
      if (c.previous[i] == 0 || c.previous[i] > i) return false;
      prev = static_cast<uint32_t>(i - c.previous[i]);
    }
    if (prev != last[h.track]) return false;
    const float prev_time = timepoints[c.keys[prev].time];
    if (prev_time > timepoints[h.time]) return false;
    if (i >= 2 * un) {
      if (prev_time < needed_before) return false;
      needed_before = prev_time;
      needed[i] = prev_time;
    }
    last[h.track] = static_cast<uint32_t>(i);
  }
  // Markers: the cursor is where the keys needed after the marker's time start; the
  // right key of every track is its latest key before the cursor.
  const size_t markers = marker_times.size();
  if (c.marker_cursor.size() != markers || c.marker_right.size() != markers * un) return false;
  std::fill(last.begin(), last.end(), 0);
  for (size_t i = 0; i < std::min(count, 2 * un); ++i) last[c.keys[i].track] = static_cast<uint32_t>(i);
  size_t scanned = 2 * un;
  for (size_t m = 0; m < markers; ++m) {
    const size_t cursor = c.marker_cursor[m];
    if (cursor < scanned || cursor > count) return false;
    for (; scanned < cursor; ++scanned) last[c.keys[scanned].track] = static_cast<uint32_t>(scanned);
    if (cursor > 2 * un && needed[cursor - 1] > marker_times[m]) return false;
    if (cursor < count && !(needed[cursor] > marker_times[m])) return false;
    for (size_t t = 0; t < un; ++t) {
      const uint16_t d = c.marker_right[m * un + t];
      uint32_t right = 0;
      if (d == kFar) {
        if (!FindFar(c.far_marker, static_cast<uint32_t>(m * un + t), &right)) return false;
      } else {
        if (d == 0 || d > cursor) return false;
        right = static_cast<uint32_t>(cursor - d);
      }
      if (right != last[t] || right < un) return false;
    }
  }
  return true;
}

}  // namespace

size_t Channel::SizeBytes() const {
  return Bytes(keys) + Bytes(values) + Bytes(previous) + Bytes(far_previous) + Bytes(marker_cursor) +
         Bytes(marker_right) + Bytes(far_marker);
}

size_t Animation::SizeBytes() const {
  return sizeof(Animation) + name.size() + Bytes(timepoints) + Bytes(marker_times) + translations.SizeBytes() +
         rotations.SizeBytes() + scales.SizeBytes();
}

bool Animation::Validate() const {
  if (num_tracks < 0 || num_tracks > kMaxTracks) return false;
  if (timepoints.size() > kMaxTimepoints || (num_tracks > 0 && timepoints.empty())) return false;
  for (size_t i = 0; i < timepoints.size(); ++i) {
    if (!std::isfinite(timepoints[i]) || (i > 0 && !(timepoints[i - 1] < timepoints[i]))) return false;
  }
  for (size_t i = 0; i < marker_times.size(); ++i) {
    if (!std::isfinite(marker_times[i]) || (i > 0 && !(marker_times[i - 1] < marker_times[i]))) return false;
  }
  return ValidateChannel(translations, 3, num_tracks, timepoints, marker_times) &&
         ValidateChannel(rotations, 4, num_tracks, timepoints, marker_times) &&
         ValidateChannel(scales, 3, num_tracks, timepoints, marker_times);
}

bool Skeleton::Validate() const {
  if (parents.size() > static_cast<size_t>(kMaxTracks) || names.size() != parents.size()) return false;
  if (rest_poses.size() != static_cast<size_t>(num_soa_joints())) return false;
  for (size_t i = 0; i < parents.size(); ++i) {
    if (parents[i] < -1 || parents[i] >= static_cast<int>(i)) return false;
  }
  return true;
}

Transform GetTransform(const SoaTransform* soa, int joint) {
  const SoaTransform& s = soa[joint / 4];
  const int l = joint % 4;
  return {{s.tx[l], s.ty[l], s.tz[l]}, {s.rx[l], s.ry[l], s.rz[l], s.rw[l]}, {s.sx[l], s.sy[l], s.sz[l]}};
}

void SetTransform(SoaTransform* soa, int joint, const Transform& t) {
  SoaTransform& s = soa[joint / 4];
  const int l = joint % 4;
  s.tx[l] = t.t[0], s.ty[l] = t.t[1], s.tz[l] = t.t[2];
  s.rx[l] = t.r[0], s.ry[l] = t.r[1], s.rz[l] = t.r[2], s.rw[l] = t.r[3];
  s.sx[l] = t.s[0], s.sy[l] = t.s[1], s.sz[l] = t.s[2];
}

}  // namespace animkit::runtime
