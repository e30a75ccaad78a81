// Kingdom Hearts II animation data (little-endian): BAR archives (ANB = motion +
// triggers, MSET = a BAR of ANBs, MDLX = a BAR holding a model), motion entries
// (raw model-space matrices, or interpolated per-channel curves) and motion triggers.
//
// Every structure keeps every field; bytes that no table covers (padding, gaps,
// tables of unknown layout) are kept as Gap records, so Serialize(Parse(x)) == x.
// Offsets stored in the structures are the file's own: a motion's table offsets
// count from 0x90 (the end of its reserved area), a BAR entry's from its BAR's start.
// See docs/formats/kh2.md for the layout and the decode rules.
#pragma once

#include <animkit/formats/kh2/archive.hpp>
#include <animkit/formats/kh2/decode.hpp>
#include <animkit/formats/kh2/encode.hpp>
#include <animkit/formats/kh2/evaluation.hpp>
#include <animkit/formats/kh2/model_entry.hpp>
#include <animkit/formats/kh2/motion.hpp>
