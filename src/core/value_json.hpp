// The bridge between animkit::Value and nlohmann::json, for code inside the library
// that reads or writes JSON documents (glTF extras). Public headers never see it.
#pragma once

#include <animkit/core/value.hpp>

#include <nlohmann/json.hpp>

namespace animkit {

nlohmann::json ToNlohmann(const Value& v);
// Binary and discarded values (nlohmann's own kinds) become null.
Value FromNlohmann(const nlohmann::json& j);

}  // namespace animkit
