// A frame rate as people read it, in every front end's text (info, Python, the preview).
#pragma once

#include <string>

namespace animkit {

// At most two decimals, no trailing zeros: "30", "48.89", "29.97"; JSON keeps the number whole.
std::string RateText(double rate);

}  // namespace animkit
