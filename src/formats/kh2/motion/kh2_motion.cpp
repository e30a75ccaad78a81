// KH2 motion entries: parse, serialize and lay out raw and interpolated motion.
#include "formats/kh2/kh2_fields.hpp"
#include "formats/kh2/kh2_internal.hpp"

#include <string>
#include <tuple>

namespace animkit::kh2 {
namespace detail {

void WriteBone(ByteWriter& w, const BoneRecord& b) { fields::WriteAll(w, b, kBoneRecord); }

}  // namespace detail

using namespace detail;

namespace {

template <class Integer>
std::string N(Integer v) {
  return std::to_string(v);
}

// A key record (table 9), 8 bytes: its table's and those read past it alike.
Key ReadKey(ByteReader& r) {
  Key k;
  fields::ReadAll(r, k, kKeyRecord);
  return k;
}

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

// Entries of a table read past its end, as the game's pointer arithmetic reads them:
// table[index] is the element at the table's offset + index x its size, wherever that
// falls in the file the game loaded (r: the entry; beyond: from it to the end of the file).
// Past the end of the file there is nothing to read: an error.
struct PastTableReader {
  const ByteReader& r;
  const ByteReader& beyond;
  InterpolatedMotion& im;

  // Grows keys to hold index (exclusive end), reading on after the key table.
  void Keys(size_t end, size_t field, const std::string& what) {
    while (im.keys.size() < end) {
      const size_t at = kReservedSize + size_t(im.key_offset) + im.keys.size() * 8;
      if (at + 8 > beyond.size())
        r.FailAt(field, what + ": key " + N(im.keys.size()) + " lies past the end of the file (" +
                            Hex(beyond.size()) + " bytes from the entry)");
      ByteReader k = beyond;
      k.Seek(at, "a key read past the key table");
      im.keys.push_back(ReadKey(k));
      ++im.read_past.keys;
    }
  }
  // Grows a float table to hold index, reading on after it.
  void Floats(std::vector<float>& table, size_t& past, int32_t offset, size_t index, size_t field,
              const std::string& what) {
    if (index < table.size()) return;
    const size_t at_end = kReservedSize + size_t(uint32_t(offset)) + (index + 1) * 4;
    if (at_end > beyond.size())
      r.FailAt(field, what + " lies past the end of the file (" + Hex(beyond.size()) + " bytes from the entry)");
    ByteReader f = beyond;
    f.Seek(kReservedSize + size_t(uint32_t(offset)) + table.size() * 4, "values read past a table");
    while (table.size() <= index) table.push_back(f.F32("a value read past its table")), ++past;
  }
};

// Checks every curve's joint, channel and keys. Real files run past their tables where
// the game never checks (keys past the key table, indices past the value table): those
// are read on as the game does, with a warning; a curve whose joint the motion lacks
// moves no joint (warning). What cannot be read at all is an error.
void ResolveCurves(const ByteReader& r, const ByteReader& beyond, InterpolatedMotion& im,
                   const std::vector<Curve>& curves, size_t table_pos, bool inverse, const std::string& what,
                   std::vector<std::string>& warnings) {
  const int joint_limit = im.JointLimit(inverse);
  const size_t own_keys = OwnEntries(im.keys, im.read_past.keys).size();
  const size_t own_times = OwnEntries(im.key_times, im.read_past.key_times).size();
  const size_t own_values = OwnEntries(im.values, im.read_past.values).size();
  const size_t own_tangents = OwnEntries(im.tangents, im.read_past.tangents).size();
  PastTableReader past{r, beyond, im};
  for (size_t i = 0; i < curves.size(); ++i) {
    const Curve& c = curves[i];
    const size_t pos = table_pos + i * 6;
    const std::string name = what + " " + N(int64_t(i));
    const std::string at = "offset " + Hex(r.absolute(pos)) + ": " + name;
    if (!im.AnimatesJoint(c, inverse)) {
      warnings.push_back(at + ": joint " + N(c.joint) + " is past the motion's joints (0.." + N(joint_limit - 1) +
                         "); the game writes its values outside the pose it reads, so it moves no joint (kept)");
      continue;
    }
    if (c.channel() >= kChannelCount)  // read and kept as the game stores it; no known channel takes its values
      warnings.push_back(at + ": channel " + N(c.channel()) + " is none of the 9 known channels (0..8); its keys are read "
                         "and kept, and it moves no channel");
    const size_t first = c.first_key, end = first + c.key_count;
    std::string read_on;
    if (end > own_keys) {
      past.Keys(end, pos + 4, name + ": keys " + N(int64_t(first)) + ".." + N(int64_t(end) - 1));
      read_on += "keys " + N(int64_t(first)) + ".." + N(int64_t(end) - 1) + " run past the key table (" +
                 N(int64_t(own_keys)) + " keys)";
    }
    const size_t keys_pos = kReservedSize + size_t(im.key_offset);
    auto note = [&](bool past_table, const std::string& text) {
      if (!past_table) return;
      if (!read_on.empty()) read_on += "; ";
      read_on += text;
    };
    for (size_t ki = first; ki < end; ++ki) {
      const Key key = im.keys[ki];
      const size_t kpos = keys_pos + ki * 8;
      const std::string kname = "key " + N(int64_t(ki));
      const size_t time = size_t(key.time_index());
      past.Floats(im.key_times, im.read_past.key_times, im.key_time_offset, time, kpos, kname + ": key time " + N(time));
      note(time >= own_times, kname + " reads key time " + N(time) + " past the key time table (" + N(own_times) + ")");
      past.Floats(im.values, im.read_past.values, im.key_value_offset, key.value, kpos + 2, kname + ": value " + N(key.value));
      note(key.value >= own_values, kname + " reads value " + N(key.value) + " past the value table (" + N(own_values) + ")");
      // Tangents are read only where a hermite segment uses them.
      if (key.type() != KeyType::Hermite || ki + 1 >= end) continue;
      const Key next = im.keys[ki + 1];
      for (const auto& [index, field, which] : {std::tuple{size_t(key.out_tangent), kpos + 6, kname + ": out-tangent"},
                                                std::tuple{size_t(next.in_tangent), kpos + 8 + 4,
                                                           "key " + N(int64_t(ki + 1)) + ": in-tangent"}}) {
        past.Floats(im.tangents, im.read_past.tangents, im.tangent_offset, index, field, which + " " + N(index));
        note(index >= own_tangents, which + " " + N(index) + " is past the tangent table (" + N(own_tangents) + ")");
      }
    }
    if (!read_on.empty()) warnings.push_back(at + ": " + read_on + "; read on into the bytes that follow, as the game does");
  }
}


// The initial pose table: a value for each channel no curve animates. A value for a joint
// past the motion's joints, or for a channel past the 9 known ones, lands outside the pose
// the game reads (as a curve's past its joints does): kept as stored, it moves nothing. Runs
// of such values are reported once per run (real movesets hold dozens in a row).
void ReadInitialPose(ByteReader& r, Coverage& cov, InterpolatedMotion& im, int total, std::vector<std::string>& warnings) {
  const size_t h = kHeaderEnd;
  ByteReader t = Table(r, cov, h + 0x14, im.initial_pose_offset, im.initial_pose_count, 8, "initial pose table");
  im.initial_pose.resize(size_t(im.initial_pose_count));
  size_t run_start = 0, run_pos = 0;
  std::string run;  // the reason shared by the current run of values that move nothing
  auto flush = [&](size_t end) {
    if (run.empty()) return;
    const std::string which = end - run_start == 1 ? "initial pose " + N(int64_t(run_start))
                                                   : "initial pose " + N(int64_t(run_start)) + ".." + N(int64_t(end - 1));
    warnings.push_back("offset " + Hex(t.absolute(run_pos)) + ": " + which + ": " + run +
                       "; the game writes the value outside the pose it reads, so it moves nothing (kept)");
    run.clear();
  };
  for (size_t i = 0; i < im.initial_pose.size(); ++i) {
    InitialPose& p = im.initial_pose[i];
    const size_t pos = t.tell();
    fields::ReadAll(t, p, kInitialPoseRecord);
    std::string why;
    if (p.bone < 0 || p.bone >= total)
      why = "bone " + N(p.bone) + " is past the motion's joints (0.." + N(total - 1) + ")";
    else if (p.channel < 0 || p.channel >= kChannelCount)
      why = "channel " + N(p.channel) + " is none of the 9 known channels (0..8)";
    if (why != run) flush(i);
    if (!why.empty() && run.empty()) run = why, run_start = i, run_pos = pos;
  }
  flush(im.initial_pose.size());
}

// The curves' keys and the tables the keys index: times, values and tangents.
void ReadKeyTables(ByteReader& r, Coverage& cov, InterpolatedMotion& im) {
  const size_t h = kHeaderEnd;
  {
    const int64_t n = Room(r, h + 0x30, im.key_offset, im.key_time_offset, 8, "key table", "key time table");
    ByteReader t = Table(r, cov, h + 0x30, im.key_offset, n, 8, "key table");
    im.keys.resize(size_t(n));
    for (Key& k : im.keys) k = ReadKey(t);
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
  const size_t constraint_size = fields::Size(kConstraintRecord), limiter_size = fields::Size(kLimiterRecord);
  {
    ByteReader t =
        Table(r, cov, h + 0x40, im.constraint_offset, im.constraint_count, constraint_size, "constraint table");
    im.constraints = fields::ReadTable<Constraint>(t, uint64_t(im.constraint_count), kConstraintRecord, "constraint table");
  }
  {
    const int64_t n =
        Room(r, h + 0x4C, im.limiter_offset, im.expression_offset, limiter_size, "limiter table", "expression table");
    ByteReader t = Table(r, cov, h + 0x4C, im.limiter_offset, n, limiter_size, "limiter table");
    im.limiters = fields::ReadTable<Limiter>(t, uint64_t(n), kLimiterRecord, "limiter table");
  }
  {
    ByteReader t = Table(r, cov, h + 0x50, im.expression_offset, im.expression_count, fields::Size(kExpressionRecord),
                         "expression table");
    im.expressions = fields::ReadTable<Expression>(t, uint64_t(im.expression_count), kExpressionRecord, "expression table");
  }
  {
    ByteReader t = Table(r, cov, h + 0x58, im.expression_node_offset, im.expression_node_count,
                         fields::Size(kExpressionNodeRecord), "expression node table");
    im.expression_nodes = fields::ReadTable<ExpressionNode>(t, uint64_t(im.expression_node_count), kExpressionNodeRecord,
                                                            "expression node table");
  }
  {
    const int64_t n = total - im.bone_count;
    ByteReader t = Table(r, cov, h + 0x08, im.ik_helper_offset, n, fields::Size(kBoneRecord), "IK helper table");
    im.ik_helpers = fields::ReadTable<BoneRecord>(t, uint64_t(n), kBoneRecord, "IK helper table");
  }
  {
    const int64_t n = int64_t(total) + 1;
    ByteReader t = Table(r, cov, h + 0x0C, im.joint_offset, n, fields::Size(kJointEntry), "joint table");
    im.joints = fields::ReadTable<JointEntry>(t, uint64_t(n), kJointEntry, "joint table");
  }
  {
    ByteReader t = Table(r, cov, h + 0x1C, im.root_position_offset, 1, fields::Size(kRootPosition), "root position");
    fields::ReadAll(t, im.root_position, kRootPosition);
  }
}

// The constraint activation table (header 0x48): it has no count; its entries are those
// the constraints' ranges cover (up to the largest start + count). A negative count or
// start cannot be read: an error at the constraint's field, as is a range past the entry.
void ReadActivations(ByteReader& r, Coverage& cov, InterpolatedMotion& im) {
  const size_t h = kHeaderEnd;
  int64_t n = 0;
  for (size_t i = 0; i < im.constraints.size(); ++i) {
    const Constraint& c = im.constraints[i];
    const size_t pos = kReservedSize + size_t(uint32_t(im.constraint_offset)) + i * fields::Size(kConstraintRecord);
    const std::string name = "constraint " + N(int64_t(i));
    if (c.activation_count < 0)
      r.FailAt(pos + 8, name + ": activation count " + N(c.activation_count) + " is negative");
    if (c.activation_count == 0) continue;
    if (c.activation_start < 0)
      r.FailAt(pos + 10, name + ": activation start " + N(c.activation_start) + " is negative");
    const int64_t end = int64_t(c.activation_start) + c.activation_count;
    const int64_t room =
        (int64_t(r.size()) - int64_t(kReservedSize) - im.activation_offset) / int64_t(fields::Size(kActivationRecord));
    if (im.activation_offset < 0 || end > room)
      r.FailAt(pos + 8, name + ": activations " + N(c.activation_start) + ".." + N(end - 1) +
                            " run past the end of the entry (the activation table at " +
                            Hex(uint32_t(im.activation_offset)) + " has room for " + N(std::max<int64_t>(room, 0)) +
                            ")");
    n = std::max(n, end);
  }
  if (n == 0) return;  // the offset of an empty table is not checked: the game never reads it
  ByteReader t = Table(r, cov, h + 0x48, im.activation_offset, n, fields::Size(kActivationRecord),
                       "constraint activation table");
  im.activations = fields::ReadTable<Activation>(t, uint64_t(n), kActivationRecord, "constraint activation table");
}

void ParseInterpolated(ByteReader& r, const ByteReader& beyond, Motion& m, Coverage& cov) {
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

  ReadInitialPose(r, cov, im, total, m.warnings);
  const size_t curve_size = fields::Size(kCurveRecord);
  ByteReader forward = Table(r, cov, h + 0x20, im.forward_offset, im.forward_count, curve_size, "forward curve table");
  im.forward = fields::ReadTable<Curve>(forward, uint64_t(im.forward_count), kCurveRecord, "forward curve table");
  ByteReader inverse = Table(r, cov, h + 0x28, im.inverse_offset, im.inverse_count, curve_size, "inverse curve table");
  im.inverse = fields::ReadTable<Curve>(inverse, uint64_t(im.inverse_count), kCurveRecord, "inverse curve table");
  ReadKeyTables(r, cov, im);
  ReadRigTables(r, cov, im, total);
  ReadActivations(r, cov, im);
  // The external effector table: an i16 joint each (OpenKH's motion.md; no known file has entries).
  if (im.effector_count < 0) r.FailAt(h + 0x94, "external effector count " + N(im.effector_count) + " is negative");
  if (im.effector_offset < 0 || kReservedSize + size_t(uint32_t(im.effector_offset)) > r.size())
    r.FailAt(h + 0x90, "external effector table offset " + Hex(uint32_t(im.effector_offset)) +
                           " points past the end of the entry");
  {
    ByteReader t = Table(r, cov, h + 0x90, im.effector_offset, im.effector_count, 2, "external effector table");
    im.effectors.resize(size_t(im.effector_count));
    for (int16_t& e : im.effectors) e = t.I16("external effector joint");
  }

  ResolveCurves(r, beyond, im, im.forward, kReservedSize + size_t(im.forward_offset), false, "forward curve",
                m.warnings);
  ResolveCurves(r, beyond, im, im.inverse, kReservedSize + size_t(im.inverse_offset), true, "inverse curve",
                m.warnings);
}

}  // namespace

Motion ParseMotion(ByteView data, uint64_t base, bool allow_placeholder, ByteView beyond) {
  ByteReader r(data, Endian::Little, base);
  const ByteReader rest(beyond.size() > data.size() ? beyond : data, Endian::Little, base);
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
    ParseInterpolated(r, rest, m, cov);
  } else {
    r.FailAt(kReservedSize, "motion type " + N(m.header.type) + " is neither 0 (interpolated) nor 1 (raw)");
  }
  m.gaps = cov.Gaps(data);
  return m;
}

}  // namespace animkit::kh2
