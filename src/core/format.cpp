// The parts of the format interface with a body: a document that is no archive has no
// members to give.
#include <animkit/core/error.hpp>
#include <animkit/core/format.hpp>

namespace animkit {

Bytes Document::MemberBytes(size_t index) const {
  throw Error::General("member " + std::to_string(index) + ": this file is no archive");
}

Bytes Document::WithMember(size_t index, ByteView) const {
  throw Error::General("member " + std::to_string(index) + ": this file is no archive");
}

}  // namespace animkit
