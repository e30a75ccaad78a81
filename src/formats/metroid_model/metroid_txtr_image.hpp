// What the Metroid models of this folder take from a TXTR beside them: its first mip level
// as the game shows it.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/model.hpp>

#include <string_view>

namespace animkit::metroid_model {

// The picture mip 0 shows; flip_rows as the option's `game` rule decides for that format.
// Throws animkit's format error naming `file` and the offset on bad bytes.
Image DecodeTxtrImage(ByteView bytes, std::string_view file, bool game_rows = true);
// Whether DecodeTxtrImage(…, true) flipped the rows (the model's v' = 1 - v follows it).
bool TxtrRowsFlipped(ByteView bytes);

}  // namespace animkit::metroid_model
