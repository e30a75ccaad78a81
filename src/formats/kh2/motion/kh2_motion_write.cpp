// KH2 motion entries: serialize, and lay out the tables of a motion built by the encoder.
#include "formats/kh2/kh2_fields.hpp"
#include "formats/kh2/kh2_internal.hpp"

namespace animkit::kh2 {

using namespace detail;

namespace {

// The bytes f writes.
Bytes Chunk(const std::function<void(ByteWriter&)>& f) {
  ByteWriter w(Endian::Little);
  f(w);
  return w.Take();
}

}  // namespace

Bytes SerializeMotion(const Motion& m) {
  Image img(m.size);
  if (m.placeholder) {
    img.PutGaps(m.gaps);
    return img.Take();
  }
  if (m.reserved.size() != kReservedSize) throw Error::General("a motion's reserved area must be 0x90 bytes");
  img.Put(0, m.reserved, "the reserved area");
  img.Put(kReservedSize, Chunk([&](ByteWriter& w) { fields::WriteAll(w, m.header, kMotionHeader); }),
          "the motion header");
  auto at = [](int32_t offset) { return kReservedSize + size_t(uint32_t(offset)); };
  if (m.raw) {
    const RawMotion& raw = m.raw_motion;
    img.Put(kHeaderEnd, Chunk([&](ByteWriter& w) { fields::WriteAll(w, raw, kRawHeader); }), "the raw motion header");
    img.Put(at(raw.matrix_offset), Chunk([&](ByteWriter& w) {
              for (const auto& mat : raw.matrices)
                for (float f : mat) w.F32(f);
            }),
            "the animation matrices");
    if (raw.second_table_offset != 0) img.Put(at(raw.second_table_offset), raw.second_table, "the second matrix table");
  } else {
    const InterpolatedMotion& im = m.interpolated;
    img.Put(kHeaderEnd, Chunk([&](ByteWriter& w) { fields::WriteAll(w, im, kInterpolatedHeader); }),
            "the interpolated motion header");
    auto table = [](const auto& records, const auto& list) {
      return Chunk([&](ByteWriter& w) { fields::WriteTable(w, records, list); });
    };
    img.Put(at(im.initial_pose_offset), table(im.initial_pose, kInitialPoseRecord), "the initial pose");
    img.Put(at(im.forward_offset), table(im.forward, kCurveRecord), "the forward curves");
    img.Put(at(im.inverse_offset), table(im.inverse, kCurveRecord), "the inverse curves");
    // Entries read past a table are other bytes of the file: only each table's own are written.
    const InterpolatedMotion::ReadPast& past = im.read_past;
    img.Put(at(im.key_offset), Chunk([&](ByteWriter& w) {
              for (const Key& k : OwnEntries(im.keys, past.keys)) fields::WriteAll(w, k, kKeyRecord);
            }),
            "the keys");
    auto floats = [](const std::vector<float>& v, size_t read_past) {
      return Chunk([&](ByteWriter& w) {
        for (float f : OwnEntries(v, read_past)) w.F32(f);
      });
    };
    img.Put(at(im.key_time_offset), floats(im.key_times, past.key_times), "the key times");
    img.Put(at(im.key_value_offset), floats(im.values, past.values), "the key values");
    img.Put(at(im.tangent_offset), floats(im.tangents, past.tangents), "the tangents");
    img.Put(at(im.constraint_offset), table(im.constraints, kConstraintRecord), "the constraints");
    if (!im.activations.empty())  // the offset of an empty table is never read: it may point anywhere
      img.Put(at(im.activation_offset), table(im.activations, kActivationRecord), "the constraint activations");
    img.Put(at(im.limiter_offset), table(im.limiters, kLimiterRecord), "the limiters");
    img.Put(at(im.expression_offset), table(im.expressions, kExpressionRecord), "the expressions");
    img.Put(at(im.expression_node_offset), table(im.expression_nodes, kExpressionNodeRecord), "the expression nodes");
    img.Put(at(im.ik_helper_offset), table(im.ik_helpers, kBoneRecord), "the IK helpers");
    img.Put(at(im.joint_offset), table(im.joints, kJointEntry), "the joint table");
    img.Put(at(im.root_position_offset), Chunk([&](ByteWriter& w) { fields::WriteAll(w, im.root_position, kRootPosition); }),
            "the root position");
    img.Put(at(im.effector_offset), Chunk([&](ByteWriter& w) {
              for (int16_t e : im.effectors) w.I16(e);
            }),
            "the external effectors");
  }
  img.PutGaps(m.gaps);
  return img.Take();
}

void LayoutMotion(Motion& m) {
  if (m.placeholder) return;  // kept as it was read
  m.gaps.clear();
  m.reserved.assign(kReservedSize, 0);
  auto align = [](size_t v, size_t a) { return (v + a - 1) / a * a; };
  auto rel = [](size_t abs) { return static_cast<int32_t>(abs - kReservedSize); };
  size_t pos = kHeaderEnd;
  // A table of `bytes` at pos: its offset is set, pos moves past it (then to a multiple of alignment).
  auto place = [&](int32_t& offset, size_t bytes, size_t alignment = 1) {
    offset = rel(pos);
    pos = align(pos + bytes, alignment);
  };
  auto count = [](const auto& table) { return static_cast<int32_t>(table.size()); };
  if (m.raw) {
    RawMotion& raw = m.raw_motion;
    m.header.type = kMotionRaw;
    raw.total_frames = raw.bone_count > 0 ? static_cast<int32_t>(raw.matrices.size() / size_t(raw.bone_count)) : 0;
    pos += kRawHeaderSize;
    place(raw.matrix_offset, raw.matrices.size() * 64);
    raw.second_table_offset = raw.second_table.empty() ? 0 : rel(pos);
    pos += raw.second_table.size();
  } else {
    InterpolatedMotion& im = m.interpolated;
    m.header.type = kMotionInterpolated;
    im.read_past = {};  // what was read past a table becomes part of it
    im.initial_pose_count = count(im.initial_pose);
    im.forward_count = count(im.forward);
    im.inverse_count = count(im.inverse);
    im.key_time_count = count(im.key_times);
    im.constraint_count = count(im.constraints);
    im.expression_count = count(im.expressions);
    im.expression_node_count = count(im.expression_nodes);
    im.effector_count = count(im.effectors);
    im.total_bone_count = static_cast<int16_t>(im.bone_count + static_cast<int>(im.ik_helpers.size()));
    im.joints.resize(size_t(im.total_bone_count) + 1);
    pos += kInterpolatedHeaderSize;
    using fields::Size;
    place(im.initial_pose_offset, im.initial_pose.size() * Size(kInitialPoseRecord));
    place(im.forward_offset, im.forward.size() * Size(kCurveRecord));
    place(im.inverse_offset, im.inverse.size() * Size(kCurveRecord));
    place(im.key_offset, im.keys.size() * Size(kKeyRecord), 4);
    place(im.key_time_offset, im.key_times.size() * 4);
    place(im.key_value_offset, im.values.size() * 4);
    place(im.tangent_offset, im.tangents.size() * 4);
    place(im.constraint_offset, im.constraints.size() * Size(kConstraintRecord));
    place(im.activation_offset, im.activations.size() * Size(kActivationRecord), 16);
    place(im.limiter_offset, im.limiters.size() * Size(kLimiterRecord), 16);
    place(im.expression_offset, im.expressions.size() * Size(kExpressionRecord));
    place(im.expression_node_offset, im.expression_nodes.size() * Size(kExpressionNodeRecord), 16);
    place(im.ik_helper_offset, im.ik_helpers.size() * Size(kBoneRecord));
    place(im.joint_offset, im.joints.size() * Size(kJointEntry), 16);
    place(im.root_position_offset, Size(kRootPosition));
    place(im.effector_offset, im.effectors.size() * 2, 16);
  }
  m.size = static_cast<uint32_t>(pos);
  m.header.byte_count = static_cast<int32_t>(pos - kReservedSize);
}

}  // namespace animkit::kh2
