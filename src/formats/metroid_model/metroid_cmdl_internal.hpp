// What the CMDL's parts share inside the folder: the surface reader and writer.
#pragma once

#include <animkit/formats/metroid_model.hpp>

namespace animkit::metroid_model {

// One surface section (r spans it); the material set 0 material it names gives the layout.
Surface ParseSurface(const CmdlFile& file, ByteReader r);
void WriteSurface(ByteWriter& w, const CmdlFile& file, const Surface& s);
// Sets s's extra size, paddings, display-list size (its normal hint kept) and end, the list
// ending in a 0 byte padded to 32; returns the section's size.
size_t LayOutSurface(const CmdlFile& file, Surface& s);
// The material a surface names (set 0), nullptr when the index is out of range.
const CmdlMaterial* MaterialOf(const CmdlFile& file, uint32_t index);

}  // namespace animkit::metroid_model
