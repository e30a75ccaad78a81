// MDB records in file order: Parse, Serialize, ReadStored, ParseModel, WriteStored and `info`
// walk these lists.
#pragma once

#include <animkit/formats/edf_mdb.hpp>

#include "formats/common/fields.hpp"

#include <type_traits>

namespace animkit::edf_mdb {

using fields::Field;

// The header after the magic (0x04..0x30).
inline constexpr auto kHeader = fields::List(
    Field{"version", &File::version}, Field{"name_count", &File::name_count}, Field{"name_offset", &File::name_offset},
    Field{"bone_count", &File::bone_count}, Field{"bone_offset", &File::bone_offset},
    Field{"object_count", &File::object_count}, Field{"object_offset", &File::object_offset},
    Field{"material_count", &File::material_count}, Field{"material_offset", &File::material_offset},
    Field{"texture_count", &File::texture_count}, Field{"texture_offset", &File::texture_offset});

// A name table entry (4 bytes): the offset of a UTF-16 string from the entry, 0 for none.
inline constexpr auto kNameEntry = fields::List(Field{"offset", &NameEntry::offset});

// A bone (0xC0 bytes).
inline constexpr auto kBoneRecord = fields::List(
    Field{"index", &Bone::index}, Field{"parent", &Bone::parent}, Field{"next_sibling", &Bone::next_sibling},
    Field{"first_child", &Bone::first_child}, Field{"name_index", &Bone::name_index},
    Field{"child_count", &Bone::child_count}, Field{"group", &Bone::group}, Field{"unknown1", &Bone::unknown1},
    Field{"unknown_flag", &Bone::unknown_flag}, Field{"padding", &Bone::padding}, Field{"local", &Bone::local},
    Field{"inverse_bind", &Bone::inverse_bind}, Field{"unknown", &Bone::unknown});

// An object (0x10): its meshes' headers at mesh_at.
inline constexpr auto kObjectRecord =
    fields::List(Field{"index", &StoredObject::index}, Field{"name", &StoredObject::name},
                 Field{"mesh_count", &StoredObject::mesh_count}, Field{"mesh_at", &StoredObject::mesh_at});

// A mesh header (0x28).
inline constexpr auto kMeshRecord = fields::List(
    Field{"flags", &StoredMesh::flags}, Field{"material", &StoredMesh::material},
    Field{"reserved", &StoredMesh::reserved}, Field{"layout_at", &StoredMesh::layout_at},
    Field{"stride", &StoredMesh::stride}, Field{"layout_count", &StoredMesh::layout_count},
    Field{"vertex_count", &StoredMesh::vertex_count}, Field{"mesh_index", &StoredMesh::mesh_index},
    Field{"vertex_at", &StoredMesh::vertex_at}, Field{"index_count", &StoredMesh::index_count},
    Field{"index_at", &StoredMesh::index_at});

// A vertex layout element (0x10).
inline constexpr auto kElementRecord =
    fields::List(Field{"type", &StoredElement::type}, Field{"offset", &StoredElement::offset},
                 Field{"channel", &StoredElement::channel}, Field{"name_at", &StoredElement::name_at});

// A material (0x20): its parameters at parameter_at, its texture slots at slot_at.
inline constexpr auto kMaterialRecord = fields::List(
    Field{"index", &StoredMaterial::index}, Field{"priority", &StoredMaterial::priority},
    Field{"queue", &StoredMaterial::queue}, Field{"name", &StoredMaterial::name},
    Field{"shader_at", &StoredMaterial::shader_at}, Field{"parameter_at", &StoredMaterial::parameter_at},
    Field{"parameter_count", &StoredMaterial::parameter_count}, Field{"slot_at", &StoredMaterial::slot_at},
    Field{"slot_count", &StoredMaterial::slot_count}, Field{"flags", &StoredMaterial::flags});

// A material parameter (0x20): f32[4] values, two more words, the 8-bit name's offset and
// the type word (component count << 8 | kind).
inline constexpr auto kParameterRecord =
    fields::List(Field{"values", &StoredParameter::values}, Field{"extra", &StoredParameter::extra},
                 Field{"name_at", &StoredParameter::name_at}, Field{"type", &StoredParameter::type});

// A texture slot (0x1C).
inline constexpr auto kSlotRecord = fields::List(
    Field{"texture", &StoredSlot::texture}, Field{"map_at", &StoredSlot::map_at}, Field{"sampler", &StoredSlot::sampler});

// A texture (0x10): UTF-16 name and file name.
inline constexpr auto kTextureRecord =
    fields::List(Field{"index", &StoredTexture::index}, Field{"name_at", &StoredTexture::name_at},
                 Field{"file_name_at", &StoredTexture::file_name_at}, Field{"reserved", &StoredTexture::reserved});

// The byte offset of member within a record of list (where a writer patches it).
template <class List, class S, class M>
constexpr size_t OffsetOf(const List& list, M S::*member) {
  size_t at = 0, found = SIZE_MAX;
  std::apply(
      [&](const auto&... f) {
        (
            [&] {
              if constexpr (std::is_same_v<decltype(f.member), M S::*>)
                if (found == SIZE_MAX && f.member == member) found = at;
              at += fields::Width(f);
            }(),
            ...);
      },
      list);
  return found;
}

static_assert(fields::Size(kHeader) == kHeaderSize - 4 && fields::Size(kBoneRecord) == kBoneSize);
static_assert(fields::Size(kNameEntry) == kNameEntrySize && fields::Size(kObjectRecord) == kObjectSize);
static_assert(fields::Size(kMeshRecord) == kMeshSize && fields::Size(kElementRecord) == kElementSize);
static_assert(fields::Size(kMaterialRecord) == kMaterialSize && fields::Size(kParameterRecord) == kParameterSize);
static_assert(fields::Size(kSlotRecord) == kMaterialTextureSize && fields::Size(kTextureRecord) == kTextureSize);

// Bone records of a skeleton whose parents come first, model[i] its rest model matrices:
// computed sibling and child links, group 0 for roots and 3 otherwise, zero unknown fields,
// inverse bind = inverse(model[i]).
std::vector<Bone> SkeletonBones(const Skeleton& skeleton, const std::vector<Mat4>& model);

}  // namespace animkit::edf_mdb
