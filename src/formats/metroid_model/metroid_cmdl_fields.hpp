// The fixed records of a CMDL, in file order: parse, serialize and `info` walk these lists.
#pragma once

#include <animkit/formats/metroid_model.hpp>

#include "formats/common/fields.hpp"

namespace animkit::metroid_model {

using fields::Field;

inline constexpr auto kCmdlHeader =
    fields::List(Field{"magic", &CmdlHeader::magic}, Field{"version", &CmdlHeader::version},
                 Field{"flags", &CmdlHeader::flags}, Field{"bounds", &CmdlHeader::bounds},
                 Field{"section_count", &CmdlHeader::section_count},
                 Field{"material_set_count", &CmdlHeader::material_set_count});
static_assert(fields::Size(kCmdlHeader) == 0x2C);

inline constexpr auto kTevStage = fields::List(
    Field{"color_inputs", &TevStage::color_inputs}, Field{"alpha_inputs", &TevStage::alpha_inputs},
    Field{"color_op", &TevStage::color_op}, Field{"alpha_op", &TevStage::alpha_op}, Field{"pad", &TevStage::pad},
    Field{"konst_alpha", &TevStage::konst_alpha}, Field{"konst_color", &TevStage::konst_color},
    Field{"raster", &TevStage::raster});
static_assert(fields::Size(kTevStage) == 20);

inline constexpr auto kTevTexture = fields::List(Field{"pad", &TevTexture::pad},
                                                 Field{"texture_slot", &TevTexture::texture_slot},
                                                 Field{"texgen", &TevTexture::texgen});
static_assert(fields::Size(kTevTexture) == 4);

inline constexpr auto kSurfaceHeader = fields::List(
    Field{"centre", &SurfaceHeader::centre}, Field{"material", &SurfaceHeader::material},
    Field{"display_list_size", &SurfaceHeader::display_list_size}, Field{"parent", &SurfaceHeader::parent},
    Field{"next", &SurfaceHeader::next}, Field{"extra_size", &SurfaceHeader::extra_size},
    Field{"normal", &SurfaceHeader::normal});
static_assert(fields::Size(kSurfaceHeader) == 0x2C);

// A material's single words and pairs between its counted lists, in file order.
inline constexpr auto kMaterialFlags = fields::List(Field{"flags", &CmdlMaterial::flags});
inline constexpr auto kMaterialAttributes = fields::List(Field{"vertex_attributes", &CmdlMaterial::vertex_attributes});
inline constexpr auto kEchoesMaterial = fields::List(Field{"echoes_unknown", &CmdlMaterial::mp2_unknown});  // version >= 3
inline constexpr auto kMaterialGroup = fields::List(Field{"group", &CmdlMaterial::group});
inline constexpr auto kMaterialBlend =
    fields::List(Field{"blend_dst", &CmdlMaterial::blend_dst}, Field{"blend_src", &CmdlMaterial::blend_src});
inline constexpr auto kUvAnimationSize = fields::List(Field{"uv_animation_size", &CmdlMaterial::uv_animation_size});
inline constexpr auto kUvAnimationMode = fields::List(Field{"mode", &UvAnimation::mode});

// Echoes (version >= 3): after the surface header.
inline constexpr auto kEchoesSurface =
    fields::List(Field{"matrix_bank", &Surface::matrix_bank}, Field{"group", &Surface::group});
// A GX primitive's opcode and vertex count, before its vertex indices.
inline constexpr auto kPrimitiveHead =
    fields::List(Field{"opcode", &Primitive::opcode}, Field{"vertex_count", &Primitive::vertex_count});
static_assert(fields::Size(kPrimitiveHead) == 3);

// CSKR: a weight group's weights and vertex count, and the MP1 footer's counts.
inline constexpr auto kSkinWeight = fields::List(Field{"bone_id", &SkinWeight::bone_id}, Field{"weight", &SkinWeight::weight});
inline constexpr auto kGroupVertexCount = fields::List(Field{"vertex_count", &WeightGroup::vertex_count});
inline constexpr auto kFooterStored = fields::List(Field{"stored", &SkinFooterCount::stored});
inline constexpr auto kFooterCount = fields::List(Field{"count", &SkinFooterCount::count});

}  // namespace animkit::metroid_model
