#include <animkit/formats/edf_mdb.hpp>
#include <animkit/offline/sampling.hpp>

#include "formats/common/edf.hpp"
#include "edf_mdb_fields.hpp"

#include <bit>
#include <cstdio>
#include <cstring>

namespace animkit::edf_mdb {
namespace {

void PutU32(Bytes& out, size_t pos, uint32_t v) {
  if (pos + 4 > out.size()) throw Error::General("MDB field at " + Hex(pos) + " lies outside the file image");
  for (int i = 0; i < 4; ++i) out[pos + size_t(i)] = uint8_t(v >> (8 * i));
}

}  // namespace

Mat4 MatrixFrom(const std::array<float, 16>& f) {
  Mat4 m;
  for (size_t c = 0; c < 4; ++c)
    for (size_t r = 0; r < 4; ++r) m.m[c][r] = f[c * 4 + r];
  return m;
}

File Parse(ByteView data) {
  ByteReader r(data, Endian::Little);
  File f;
  r.Magic("MDB0");
  fields::ReadAll(r, f, kHeader);
  f.image.assign(data.begin(), data.end());

  // The tables not interpreted must still lie inside the file (entries of at least 16 bytes).
  r.Table(f.object_offset, f.object_count, 16, 0x1C, "object table");
  r.Table(f.material_offset, f.material_count, 32, 0x24, "material table");
  r.Table(f.texture_offset, f.texture_count, 16, 0x2C, "texture table");

  f.names = edf::ReadNameTable<NameEntry>(r, f.name_offset, f.name_count, 0x0C, "name", kNameEntrySize);

  ByteReader b = r.Table(f.bone_offset, f.bone_count, kBoneSize, 0x14, "bone table");
  f.bones.resize(f.bone_count);
  for (size_t i = 0; i < f.bone_count; ++i) {
    Bone& bone = f.bones[i];
    const size_t at = b.absolute(b.tell());
    fields::ReadAll(b, bone, kBoneRecord);
    if (bone.parent < -1 || bone.parent >= int64_t(i)) {
      r.FailAt(at + 4, "bone " + std::to_string(i) + " has parent " + std::to_string(bone.parent) +
                           "; a parent must be -1 or a bone that comes before it");
    }
    if (bone.name_index >= f.name_count) {
      r.FailAt(at + 16, "bone " + std::to_string(i) + " names name " + std::to_string(bone.name_index) +
                            ", but the name table has " + std::to_string(f.name_count));
    }
  }
  return f;
}

Bytes Serialize(const File& f) {
  Bytes out = f.image;
  if (out.size() < kHeaderSize) throw Error::General("an MDB image needs at least its 0x30-byte header");
  std::memcpy(out.data(), "MDB0", 4);
  fields::WriteAt(out, 4, Endian::Little, f, kHeader);
  for (size_t i = 0; i < f.names.size(); ++i) PutU32(out, f.name_offset + kNameEntrySize * i, f.names[i].offset);
  for (size_t i = 0; i < f.bones.size(); ++i) {
    const Bone& b = f.bones[i];
    const size_t at = f.bone_offset + kBoneSize * i;
    fields::WriteAt(out, at, Endian::Little, b, kBoneRecord);
  }
  return out;
}

Skeleton DecodeSkeleton(const File& f) {
  Skeleton s;
  s.joints.reserve(f.bones.size());
  for (size_t i = 0; i < f.bones.size(); ++i) {
    const Bone& b = f.bones[i];
    const std::string& name = f.names[b.name_index].name;
    Joint j{name, b.parent, DecomposeTRS(MatrixFrom(b.local))};
    if (name.empty()) {  // "#i", formatted directly (concatenation trips a GCC 12 -O3 false warning)
      char buf[32];
      std::snprintf(buf, sizeof buf, "#%zu", i);
      j.name = buf;
    }
    s.joints.push_back(std::move(j));
  }
  return s;
}

void WriteBones(ByteWriter& w, const Skeleton& skeleton, const std::vector<Mat4>& model) {
  const size_t n = skeleton.joints.size();
  for (size_t i = 0; i < n; ++i) {
    const Joint& j = skeleton.joints[i];
    int32_t first_child = -1, next_sibling = -1;
    uint32_t children = 0;
    for (size_t k = n; k-- > i + 1;) {
      if (skeleton.joints[k].parent == int(i)) first_child = int32_t(k), ++children;
    }
    for (size_t k = i + 1; k < n; ++k) {
      if (skeleton.joints[k].parent == j.parent) {
        next_sibling = int32_t(k);
        break;
      }
    }
    w.U32(uint32_t(i));
    w.I32(j.parent);
    w.I32(next_sibling);
    w.I32(first_child);
    w.U32(uint32_t(i));
    w.U32(children);
    w.U8(j.parent < 0 ? 0 : 3);  // group: 0 root, 3 a skinned bone in known files
    w.U8(0);
    w.U8(0);  // the unknown floats below are zero
    w.Fill(5);
    const Mat4 l = MatrixFromTRS(j.rest), inv = InverseAffine(model[i]);
    for (size_t c = 0; c < 4; ++c)
      for (size_t r = 0; r < 4; ++r) w.F32(l.m[c][r]);
    for (size_t c = 0; c < 4; ++c)
      for (size_t r = 0; r < 4; ++r) w.F32(inv.m[c][r]);
    w.Fill(32);
  }
}

File EncodeSkeleton(const Skeleton& skeleton, uint32_t version) {
  const size_t n = skeleton.joints.size();
  const size_t names_at = kHeaderSize, bones_at = names_at + kNameEntrySize * n, strings_at = bones_at + kBoneSize * n;
  // Model-space matrices for the inverse bind matrices.
  std::vector<TransformTRS> local(n);
  std::vector<Mat4> model(n);
  for (size_t i = 0; i < n; ++i) {
    local[i] = skeleton.joints[i].rest;
    if (skeleton.joints[i].parent >= int(i)) {
      throw Error::General("joint '" + skeleton.joints[i].name + "' comes before its parent; an MDB lists parents first");
    }
  }
  LocalToModel(skeleton, local, model);

  ByteWriter w(Endian::Little);
  for (char c : {'M', 'D', 'B', '0'}) w.U8(uint8_t(c));
  const uint32_t end_of_bones = uint32_t(strings_at);
  for (uint32_t v : {version, uint32_t(n), uint32_t(names_at), uint32_t(n), uint32_t(bones_at), 0u, end_of_bones, 0u,
                     end_of_bones, 0u, end_of_bones})
    w.U32(v);
  std::vector<std::vector<uint16_t>> strings;
  size_t at = strings_at;
  for (size_t i = 0; i < n; ++i) {
    strings.push_back(Utf16FromUtf8(skeleton.joints[i].name));
    w.U32(uint32_t(at - (names_at + kNameEntrySize * i)));
    at += 2 * (strings.back().size() + 1);
  }
  WriteBones(w, skeleton, model);
  for (const auto& s : strings) {
    for (uint16_t u : s) w.U16(u);
    w.U16(0);
  }
  return Parse(w.Take());
}

}  // namespace animkit::edf_mdb
