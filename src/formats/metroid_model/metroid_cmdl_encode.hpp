// The CMDL writer as a conversion uses it (the format's encode).
#pragma once

#include <animkit/formats/metroid_model.hpp>

namespace animkit::metroid_model {

// EncodeCmdl with the model id from the output's name (ModelIdOfName), the bone ids of a
// CINF-decoded scene or --skeleton, the CSKR and TXTRs as extra outputs beside the output
// ("<ID>.CSKR", "<ID>.TXTR"), the report and the warnings.
CmdlEncoded EncodeCmdlFor(const Scene& scene, EncodeContext& context);
// "<ID>.CSKR".
std::string SkinFileName(uint32_t id);

}  // namespace animkit::metroid_model
