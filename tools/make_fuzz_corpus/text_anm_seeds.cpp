// The text ANM's seeds: its encoder in both layouts.
#include "corpus.hpp"

namespace animkit::fuzz_corpus {

const FormatSeeds kTextAnmSeeds{{{"text-anm", {{}, {{"anm-layout", "new"}}}}}};

}  // namespace animkit::fuzz_corpus
