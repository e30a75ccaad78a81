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

}  // namespace animkit::metroid_model
