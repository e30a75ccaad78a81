#include "format_fuzz.hpp"

ANIMKIT_FORMAT_FUZZER(kMetroidCskrFormat)
