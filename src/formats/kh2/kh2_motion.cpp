// KH2 motion entries: parse, serialize and lay out raw and interpolated motion.
#include "kh2_fields.hpp"
#include "kh2_internal.hpp"

#include <string>

namespace animkit::kh2 {
namespace detail {

BoneRecord ReadBone(ByteReader& r) {
  BoneRecord b;
  fields::ReadAll(r, b, kBoneRecord);
  return b;
}

void WriteBone(ByteWriter& w, const BoneRecord& b) { fields::WriteAll(w, b, kBoneRecord); }

}  // namespace detail

using namespace detail;

namespace {

std::string N(int64_t v) { return std::to_string(v); }

void ParseRaw(ByteReader& r, Motion& m, Coverage& cov) {
  RawMotion& raw = m.raw_motion;
  r.Seek(kHeaderEnd, "the raw motion header");
  r.Require(kRawHeaderSize, "the raw motion header");
  fields::ReadAll(r, raw, kRawHeader);
  cov.Add(kHeaderEnd, r.tell());
  if (raw.bone_count < 0) r.FailAt(kHeaderEnd, "bone count " + N(raw.bone_count) + " is negative");
  if (raw.total_frames < 0) r.FailAt(kHeaderEnd + 0x14, "total frame count " + N(raw.total_frames) + " is negative");
  const int64_t matrices_at = int64_t(kReservedSize) + raw.matrix_offset;
  if (raw.matrix_offset < 0 || matrices_at > int64_t(r.size()))
    r.FailAt(kHeaderEnd + 0x18, "animation matrix offset " + Hex(uint32_t(raw.matrix_offset)) +
                                    " points past the end of the entry (" + Hex(r.size() - kReservedSize) + ")");
  r.Seek(static_cast<size_t>(matrices_at), "the animation matrices");
  const size_t matrices_begin = r.tell();
  const uint64_t count = uint64_t(raw.bone_count) * uint64_t(raw.total_frames);
  r.Count(count, 64, "raw motion matrices (" + N(raw.total_frames) + " frames x " + N(raw.bone_count) + " bones)");
  raw.matrices.resize(count);
  for (auto& mat : raw.matrices)
    for (float& f : mat) f = r.F32("a matrix value");
  const size_t end = r.tell();
  cov.Add(matrices_begin, end);
  if (raw.second_table_offset != 0) {
    const int64_t at = int64_t(kReservedSize) + raw.second_table_offset;
    if (raw.second_table_offset < 0 || at < int64_t(end) || at > int64_t(r.size()))
      r.FailAt(kHeaderEnd + 0x1C, "second matrix table offset " + Hex(uint32_t(raw.second_table_offset)) +
                                      " must point between the end of the matrices (" + Hex(end - kReservedSize) +
                                      ") and the end of the entry (" + Hex(r.size() - kReservedSize) + ")");
    ByteView rest = r.data().subspan(static_cast<size_t>(at));
    raw.second_table.assign(rest.begin(), rest.end());
    cov.Add(static_cast<size_t>(at), r.size());
  }
}

// A table of count elements of elem bytes at offset (from 0x90), named for messages;
// field is the position of the header field that holds the offset.
ByteReader Table(const ByteReader& r, Coverage& cov, size_t field, int64_t offset, int64_t count, size_t elem,
                 const std::string& what) {
  if (count < 0) r.FailAt(field, what + ": count " + N(count) + " is negative");
  if (offset < 0) r.FailAt(field, what + " offset " + N(offset) + " is negative");
  const int64_t at = int64_t(kReservedSize) + offset;
  ByteReader t = r.Table(at, uint64_t(count), elem, field, what);
  cov.Add(static_cast<size_t>(at), static_cast<size_t>(at) + size_t(count) * elem);
  return t;
}

// Elements that fit between two offsets (a table whose count is not stored).
int64_t Room(const ByteReader& r, size_t field, int64_t from, int64_t to, size_t elem, const std::string& what,
             const std::string& next) {
  if (to < from)
    r.FailAt(field, what + " offset " + Hex(uint32_t(from)) + " is after the " + next + " offset " +
                        Hex(uint32_t(to)) + " that ends it");
  return (to - from) / int64_t(elem);
}

void CheckCurves(const ByteReader& r, const InterpolatedMotion& im, const std::vector<Curve>& curves, size_t table_pos,
                 int joint_limit, const std::string& what) {
  for (size_t i = 0; i < curves.size(); ++i) {
    const Curve& c = curves[i];
    const size_t pos = table_pos + i * 6;
    const std::string name = what + " " + N(int64_t(i));
    if (c.joint < 0 || c.joint >= joint_limit)
      r.FailAt(pos, name + ": joint " + N(c.joint) + " is out of range (0.." + N(joint_limit - 1) + ")");
    if (c.channel() >= kChannelCount) r.FailAt(pos + 2, name + ": channel " + N(c.channel()) + " is not 0..8");
    if (c.first_key < 0 || size_t(c.first_key) + c.key_count > im.keys.size())
      r.FailAt(pos + 4, name + ": keys " + N(c.first_key) + ".." + N(int64_t(c.first_key) + c.key_count - 1) +
                            " are out of range (the key table holds " + N(int64_t(im.keys.size())) + ")");
    const size_t keys_pos = kReservedSize + size_t(im.key_offset);
    for (int k = 0; k < c.key_count; ++k) {
      const size_t ki = size_t(c.first_key) + size_t(k);
      const Key& key = im.keys[ki];
      const size_t kpos = keys_pos + ki * 8;
      if (size_t(key.time_index()) >= im.key_times.size())
        r.FailAt(kpos, "key " + N(int64_t(ki)) + " (" + name + "): key time index " + N(key.time_index()) +
                           " is out of range (" + N(int64_t(im.key_times.size())) + " key times)");
      if (key.value < 0 || size_t(key.value) >= im.values.size())
        r.FailAt(kpos + 2, "key " + N(int64_t(ki)) + " (" + name + "): value index " + N(key.value) +
                               " is out of range (" + N(int64_t(im.values.size())) + " values)");
      // Tangents are checked only where a hermite segment uses them.
      if (key.type() == KeyType::Hermite && k + 1 < c.key_count) {
        const Key& next = im.keys[ki + 1];
        if (key.out_tangent < 0 || size_t(key.out_tangent) >= im.tangents.size())
          r.FailAt(kpos + 6, "key " + N(int64_t(ki)) + " (" + name + "): out-tangent index " + N(key.out_tangent) +
                                 " is out of range (" + N(int64_t(im.tangents.size())) + " tangents)");
        if (next.in_tangent < 0 || size_t(next.in_tangent) >= im.tangents.size())
          r.FailAt(kpos + 8 + 4, "key " + N(int64_t(ki + 1)) + " (" + name + "): in-tangent index " +
                                     N(next.in_tangent) + " is out of range (" + N(int64_t(im.tangents.size())) +
                                     " tangents)");
      }
    }
  }
}

std::vector<Curve> ReadCurves(ByteReader t, size_t count) {
  std::vector<Curve> curves(count);
  for (Curve& c : curves) {
    c.joint = t.I16("curve joint");
    c.packed = t.U8("curve channel and cycle types");
    c.key_count = t.U8("curve key count");
    c.first_key = t.I16("curve first key");
  }
  return curves;
}

// The initial pose table: a value for each channel no curve animates.
void ReadInitialPose(ByteReader& r, Coverage& cov, InterpolatedMotion& im, int total) {
  const size_t h = kHeaderEnd;
  ByteReader t = Table(r, cov, h + 0x14, im.initial_pose_offset, im.initial_pose_count, 8, "initial pose table");
  im.initial_pose.resize(size_t(im.initial_pose_count));
  for (size_t i = 0; i < im.initial_pose.size(); ++i) {
    InitialPose& p = im.initial_pose[i];
    const size_t pos = t.tell();
    p.bone = t.I16("initial pose bone");
    p.channel = t.I16("initial pose channel");
    p.value = t.F32("initial pose value");
    if (p.bone < 0 || p.bone >= total)
      t.FailAt(pos, "initial pose " + N(int64_t(i)) + ": bone " + N(p.bone) + " is out of range (0.." +
                        N(total - 1) + ")");
    if (p.channel < 0 || p.channel >= kChannelCount)
      t.FailAt(pos + 2, "initial pose " + N(int64_t(i)) + ": channel " + N(p.channel) + " is not 0..8");
  }
}

// The curves' keys and the tables the keys index: times, values and tangents.
void ReadKeyTables(ByteReader& r, Coverage& cov, InterpolatedMotion& im) {
  const size_t h = kHeaderEnd;
  {
    const int64_t n = Room(r, h + 0x30, im.key_offset, im.key_time_offset, 8, "key table", "key time table");
    ByteReader t = Table(r, cov, h + 0x30, im.key_offset, n, 8, "key table");
    im.keys.resize(size_t(n));
    for (Key& k : im.keys) {
      k.packed = t.U16("key type and time index");
      k.value = t.I16("key value index");
      k.in_tangent = t.I16("key in-tangent index");
      k.out_tangent = t.I16("key out-tangent index");
    }
  }
  {
    ByteReader t = Table(r, cov, h + 0x34, im.key_time_offset, im.key_time_count, 4, "key time table");
    im.key_times.resize(size_t(im.key_time_count));
    for (float& v : im.key_times) v = t.F32("a key time");
  }
  {
    const int64_t n = Room(r, h + 0x38, im.key_value_offset, im.tangent_offset, 4, "key value table", "tangent table");
    ByteReader t = Table(r, cov, h + 0x38, im.key_value_offset, n, 4, "key value table");
    im.values.resize(size_t(n));
    for (float& v : im.values) v = t.F32("a key value");
  }
  {
    const int64_t n =
        Room(r, h + 0x3C, im.tangent_offset, im.constraint_offset, 4, "tangent table", "constraint table");
    ByteReader t = Table(r, cov, h + 0x3C, im.tangent_offset, n, 4, "tangent table");
    im.tangents.resize(size_t(n));
    for (float& v : im.tangents) v = t.F32("a tangent");
  }
}

// The rig the motion drives besides its curves: constraints, limiters, expressions, IK
// helpers, the joint table and the root position.
void ReadRigTables(ByteReader& r, Coverage& cov, InterpolatedMotion& im, int total) {
  const size_t h = kHeaderEnd;
  {
    ByteReader t = Table(r, cov, h + 0x40, im.constraint_offset, im.constraint_count, 12, "constraint table");
    im.constraints.resize(size_t(im.constraint_count));
    for (Constraint& c : im.constraints) {
      c.type = t.U8("constraint type");
      c.unknown1 = t.U8("constraint field");
      c.bone = t.I16("constraint bone");
      c.ik_helper = t.I16("constraint IK helper");
      c.limiter = t.I16("constraint limiter");
      c.unknown = t.I32("constraint field");
    }
  }
  {
    const int64_t n =
        Room(r, h + 0x4C, im.limiter_offset, im.expression_offset, 0x30, "limiter table", "expression table");
    ByteReader t = Table(r, cov, h + 0x4C, im.limiter_offset, n, 0x30, "limiter table");
    im.limiters.resize(size_t(n));
    for (Limiter& l : im.limiters) {
      l.type = t.I32("limiter type");
      for (float& v : l.values) v = t.F32("a limiter value");
    }
  }
  {
    ByteReader t = Table(r, cov, h + 0x50, im.expression_offset, im.expression_count, 8, "expression table");
    im.expressions.resize(size_t(im.expression_count));
    for (Expression& e : im.expressions) {
      e.node = t.I16("expression node");
      e.unknown = t.I16("expression field");
      e.value = t.F32("expression value");
    }
  }
  {
    ByteReader t =
        Table(r, cov, h + 0x58, im.expression_node_offset, im.expression_node_count, 12, "expression node table");
    im.expression_nodes.resize(size_t(im.expression_node_count));
    for (ExpressionNode& e : im.expression_nodes) {
      e.type = t.I16("expression node type");
      e.left = t.I16("expression node operand");
      e.value = t.F32("expression node value");
      e.right = t.I16("expression node operand");
      e.next = t.I16("expression node operand");
    }
  }
  {
    const int64_t n = total - im.bone_count;
    ByteReader t = Table(r, cov, h + 0x08, im.ik_helper_offset, n, 0x40, "IK helper table");
    im.ik_helpers.resize(size_t(n));
    for (BoneRecord& b : im.ik_helpers) b = ReadBone(t);
  }
  {
    const int64_t n = int64_t(total) + 1;
    ByteReader t = Table(r, cov, h + 0x0C, im.joint_offset, n, 4, "joint table");
    im.joints.resize(size_t(n));
    for (JointEntry& j : im.joints) {
      j.joint = t.I16("joint index");
      j.flags = t.I16("joint flags");
    }
  }
  {
    ByteReader t = Table(r, cov, h + 0x1C, im.root_position_offset, 1, kRootPositionSize, "root position");
    im.root_position.scale = ReadVec4(t, "root scale");
    im.root_position.rotation = ReadVec4(t, "root rotation");
    im.root_position.translation = ReadVec4(t, "root translation");
    for (int32_t& v : im.root_position.unknown) v = t.I32("root position field");
  }
}

void ParseInterpolated(ByteReader& r, Motion& m, Coverage& cov) {
  InterpolatedMotion& im = m.interpolated;
  const size_t h = kHeaderEnd;
  r.Seek(h, "the interpolated motion header");
  r.Require(kInterpolatedHeaderSize, "the interpolated motion header");
  fields::ReadAll(r, im, kInterpolatedHeader);
  cov.Add(h, r.tell());

  if (im.bone_count < 0) r.FailAt(h, "bone count " + N(im.bone_count) + " is negative");
  if (im.total_bone_count < im.bone_count)
    r.FailAt(h + 2, "total bone count " + N(im.total_bone_count) + " is less than the bone count " + N(im.bone_count));
  const int total = im.total_bone_count;

  ReadInitialPose(r, cov, im, total);
  im.forward = ReadCurves(Table(r, cov, h + 0x20, im.forward_offset, im.forward_count, 6, "forward curve table"),
                          size_t(im.forward_count));
  im.inverse = ReadCurves(Table(r, cov, h + 0x28, im.inverse_offset, im.inverse_count, 6, "inverse curve table"),
                          size_t(im.inverse_count));
  ReadKeyTables(r, cov, im);
  ReadRigTables(r, cov, im, total);
  // The external effector table's entries have no known layout: its bytes stay in the gaps.
  if (im.effector_count < 0) r.FailAt(h + 0x94, "external effector count " + N(im.effector_count) + " is negative");
  if (im.effector_offset < 0 || kReservedSize + size_t(uint32_t(im.effector_offset)) > r.size())
    r.FailAt(h + 0x90, "external effector table offset " + Hex(uint32_t(im.effector_offset)) +
                           " points past the end of the entry");

  CheckCurves(r, im, im.forward, kReservedSize + size_t(im.forward_offset), total, "forward curve");
  CheckCurves(r, im, im.inverse, kReservedSize + size_t(im.inverse_offset), total - im.bone_count, "inverse curve");
}

}  // namespace

Motion ParseMotion(ByteView data, uint64_t base, bool allow_placeholder) {
  ByteReader r(data, Endian::Little, base);
  Motion m;
  Coverage cov;
  if (allow_placeholder && data.size() < kHeaderEnd && std::all_of(data.begin(), data.end(), [](uint8_t b) { return b == 0; })) {
    // The game's placeholder: zero bytes, no header. An empty slot, kept verbatim.
    m.placeholder = true;
    m.size = static_cast<uint32_t>(data.size());
    m.gaps = cov.Gaps(data);
    return m;
  }
  r.Require(kHeaderEnd, "a motion entry (0x90 reserved bytes and a 16-byte header)");
  ByteView reserved = r.Take(kReservedSize, "reserved area");
  m.reserved.assign(reserved.begin(), reserved.end());
  fields::ReadAll(r, m.header, kMotionHeader);
  cov.Add(0, kHeaderEnd);
  m.size = static_cast<uint32_t>(data.size());
  if (m.header.type == kMotionRaw) {
    m.raw = true;
    ParseRaw(r, m, cov);
  } else if (m.header.type == kMotionInterpolated) {
    ParseInterpolated(r, m, cov);
  } else {
    r.FailAt(kReservedSize, "motion type " + N(m.header.type) + " is neither 0 (interpolated) nor 1 (raw)");
  }
  m.gaps = cov.Gaps(data);
  return m;
}

}  // namespace animkit::kh2
