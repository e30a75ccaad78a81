#include <animkit/formats/edf_mdb.hpp>
#include <animkit/offline/sampling.hpp>

#include "formats/common/edf.hpp"
#include "edf_mdb_fields.hpp"

#include <cstdio>
#include <cstring>

namespace animkit::edf_mdb {

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
  f.bones = fields::ReadTable<Bone>(b, f.bone_count, kBoneRecord, "bone table");
  for (size_t i = 0; i < f.bones.size(); ++i) {
    const Bone& bone = f.bones[i];
    const size_t at = f.bone_offset + kBoneSize * i;
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
  for (size_t i = 0; i < f.names.size(); ++i)
    fields::WriteAt(out, f.name_offset + kNameEntrySize * i, Endian::Little, f.names[i], kNameEntry);
  for (size_t i = 0; i < f.bones.size(); ++i)
    fields::WriteAt(out, f.bone_offset + kBoneSize * i, Endian::Little, f.bones[i], kBoneRecord);
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

std::vector<Bone> SkeletonBones(const Skeleton& skeleton, const std::vector<Mat4>& model) {
  const size_t n = skeleton.joints.size();
  std::vector<Bone> bones(n);
  for (size_t i = 0; i < n; ++i) {
    const Joint& j = skeleton.joints[i];
    Bone& b = bones[i];
    b.index = uint32_t(i), b.parent = j.parent, b.name_index = uint32_t(i);
    for (size_t k = n; k-- > i + 1;) {
      if (skeleton.joints[k].parent == int(i)) b.first_child = int32_t(k), ++b.child_count;
    }
    for (size_t k = i + 1; k < n; ++k) {
      if (skeleton.joints[k].parent == j.parent) {
        b.next_sibling = int32_t(k);
        break;
      }
    }
    b.group = j.parent < 0 ? 0 : 3;  // 0 root, 3 a skinned bone in known files
    const Mat4 l = MatrixFromTRS(j.rest), inv = InverseAffine(model[i]);
    for (size_t c = 0; c < 4; ++c)
      for (size_t r = 0; r < 4; ++r) b.local[c * 4 + r] = l.m[c][r], b.inverse_bind[c * 4 + r] = inv.m[c][r];
  }
  return bones;
}

File EncodeSkeleton(const Skeleton& skeleton, uint32_t version) {
  const size_t n = skeleton.joints.size();
  for (size_t i = 0; i < n; ++i) {
    if (skeleton.joints[i].parent >= int(i)) {
      throw Error::General("joint '" + skeleton.joints[i].name + "' comes before its parent; an MDB lists parents first");
    }
  }
  // Model-space matrices for the inverse bind matrices.
  std::vector<TransformTRS> local(n);
  std::vector<Mat4> model(n);
  for (size_t i = 0; i < n; ++i) local[i] = skeleton.joints[i].rest;
  LocalToModel(skeleton, local, model);

  File h;
  h.version = version;
  h.name_count = h.bone_count = uint32_t(n);
  h.name_offset = uint32_t(kHeaderSize), h.bone_offset = uint32_t(kHeaderSize + kNameEntrySize * n);
  const uint32_t strings_at = uint32_t(h.bone_offset + kBoneSize * n);
  h.object_offset = h.material_offset = h.texture_offset = strings_at;
  ByteWriter w(Endian::Little);
  w.Append(ByteView(reinterpret_cast<const uint8_t*>("MDB0"), 4));
  fields::WriteAll(w, h, kHeader);
  std::vector<std::vector<uint16_t>> strings;
  size_t at = strings_at;
  for (size_t i = 0; i < n; ++i) {
    strings.push_back(Utf16FromUtf8(skeleton.joints[i].name));
    fields::WriteAll(w, NameEntry{uint32_t(at - (h.name_offset + kNameEntrySize * i)), {}}, kNameEntry);
    at += 2 * (strings.back().size() + 1);
  }
  fields::WriteTable(w, SkeletonBones(skeleton, model), kBoneRecord);
  for (const auto& s : strings) {
    for (uint16_t u : s) w.U16(u);
    w.U16(0);
  }
  return Parse(w.Take());
}

}  // namespace animkit::edf_mdb
