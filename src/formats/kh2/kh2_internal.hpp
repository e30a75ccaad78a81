// Helpers shared by the KH2 readers and writers.
#pragma once

#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <span>
#include <utility>

namespace animkit::kh2::detail {

// Offsets and sizes of a motion entry's headers (after the reserved area).
constexpr size_t kHeaderEnd = kReservedSize + 0x10;  // 0xA0: the body header ends
constexpr size_t kRawHeaderSize = 0x50;
constexpr size_t kInterpolatedHeaderSize = 0xA0;

// Which byte ranges of an entry the parsed tables cover; the rest becomes Gaps.
class Coverage {
 public:
  void Add(size_t begin, size_t end) {
    if (end > begin) ranges_.emplace_back(begin, end);
  }
  std::vector<Gap> Gaps(ByteView data) {
    std::sort(ranges_.begin(), ranges_.end());
    std::vector<Gap> gaps;
    size_t pos = 0;
    auto emit = [&](size_t from, size_t to) {
      if (to <= from) return;
      Gap g;
      g.offset = static_cast<uint32_t>(from);
      g.bytes.assign(data.begin() + static_cast<std::ptrdiff_t>(from), data.begin() + static_cast<std::ptrdiff_t>(to));
      gaps.push_back(std::move(g));
    };
    for (const auto& [b, e] : ranges_) {
      emit(pos, std::min(b, data.size()));
      pos = std::max(pos, e);
    }
    emit(pos, data.size());
    return gaps;
  }

 private:
  std::vector<std::pair<size_t, size_t>> ranges_;
};

// Reads records one after another with read_one(record, index), marking the bytes each covers.
template <class Record, class ReadOne>
void ReadRecords(ByteReader& r, Coverage& cov, std::vector<Record>& records, ReadOne read_one) {
  for (size_t i = 0; i < records.size(); ++i) {
    const size_t start = r.tell();
    read_one(records[i], i);
    cov.Add(start, r.tell());
  }
}

// Places chunks at offsets in a buffer of a fixed size.
class Image {
 public:
  explicit Image(size_t size) : bytes_(size, 0) {}
  void Put(size_t offset, const Bytes& chunk, std::string_view what) {
    if (offset + chunk.size() > bytes_.size() || offset > bytes_.size())
      throw Error::General(std::string(what) + " at " + Hex(offset) + " (" + Hex(chunk.size()) +
                           " bytes) does not fit in the entry of " + Hex(bytes_.size()) + " bytes");
    if (!chunk.empty()) std::memcpy(bytes_.data() + offset, chunk.data(), chunk.size());
  }
  void PutGaps(const std::vector<Gap>& gaps) {
    for (const Gap& g : gaps) Put(g.offset, g.bytes, "a kept gap");
  }
  Bytes Take() { return std::move(bytes_); }

 private:
  Bytes bytes_;
};

// A table's own entries: without those read past its end (InterpolatedMotion::read_past).
template <class T>
std::span<const T> OwnEntries(const std::vector<T>& table, size_t read_past) {
  return {table.data(), table.size() - read_past};
}

// `animkit info` of an archive and of a motion entry (kh2_info.cpp).
Value BarInfo(const Bar& bar);
// A stored (x, y, z, w) as the info documents write it.
inline Value V4(const Vec4f& v) { return Value::array({v[0], v[1], v[2], v[3]}); }
// An archive's document, its entries' parts described by `parts` (full or summary).
struct BarInfoParts {
  Value (*motion)(const Motion&);
  Value (*triggers)(const Triggers&);
  Value (*model)(const Model&);
  Value (*gaps)(const std::vector<Gap>&);
};
Value BarDocument(const Bar& bar, const BarInfoParts& parts);
Value MotionInfo(const Motion& motion);
// What `info` and its summary both show of a motion: its kind, size and header fields (a raw
// motion's whole header), and an interpolated motion's header fields besides its offsets.
Value MotionHeadInfo(const Motion& motion);
Value InterpolatedHeadInfo(const InterpolatedMotion& motion);
// The same without the records: per table its count, offset and size (kh2_info_summary.cpp).
Value BarSummary(const Bar& bar);
Value MotionSummary(const Motion& motion);

// The frames the game plays of an interpolated motion: from the header's frame start
// (0x80, kept as "frame_loop") to its frame end, both included; played frame k is at key
// time (start + k) * 60 / fps. A frame end that is not positive falls back to the total
// frames (engine frames); a start that is not within 0..end to 0.
struct PlayedFrames {
  double start = 0;
  size_t count = 1;
  double KeyTime(size_t k, double fps) const { return (start + double(k)) * kEngineRate / fps; }
};
PlayedFrames FramesPlayed(const InterpolatedMotion& motion, const Limits& limits = {});

// The evaluation plan of a motion posed with a skeleton: base = rest channels for the
// bones (identity past them) and the helper records; parents = the skeleton's for the
// bones when it covers them (else roots), the helper records' for the helpers.
EvaluationPlan PlanFor(const InterpolatedMotion& motion, const Skeleton& skeleton, const std::vector<ChannelValues>& rest,
                       const EvaluationSettings& settings);

// Replaces the per-frame keys of clip (one track per joint, as DecodeInterpolated makes them)
// with the joint's curves wherever they give the same pose at every played frame
// (kh2_stored_keys.cpp); properties a constraint, IK or an expression moves keep their frames.
void UseStoredKeys(const InterpolatedMotion& motion, const EvaluationPlan& plan, const PlayedFrames& played, double fps,
                   double rotation_tolerance, Clip& clip);

// What the evaluation of a motion does (info): constraint counts by type, expressions, IK
// joints, and what it leaves as forward kinematics (the plan's warnings).
Value EvaluationInfo(const InterpolatedMotion& motion);
// What the evaluation leaves as forward kinematics, once per motion payload, each line
// after where (an archive's: "entry 12 (A101) > entry 0 (A101): ").
void EvaluationWarnings(const Motion& motion, const std::string& where, std::vector<std::string>& out);
void EvaluationWarnings(const Bar& bar, std::vector<std::string>& out);
// What sets joint's pose in a motion ("a Position constraint from #12, IK (aim)..."),
// joints named as skeleton names them.
std::string DrivenBy(const InterpolatedMotion& motion, int joint, const Skeleton& skeleton);

// The meshes, materials and textures of the archive's model entry (its texture entry
// beside it) into scene; what was left out, as warnings (when given).
void AddModelMeshes(const Bar& bar, Scene& scene, const Limits& limits, std::vector<std::string>* warnings);

// A bone record through its field list (formats/kh2/kh2_fields.hpp).
void WriteBone(ByteWriter& w, const BoneRecord& b);

}  // namespace animkit::kh2::detail
