// animkit.exe's operator new and delete: small blocks from per-thread free lists, large
// ones from the C runtime. The C runtime's malloc (msvcrt over the Windows heap) takes
// 2.4 times glibc's time per block, and the CLI allocates millions of small strings and
// vectors (docs/performance.md, "Windows"); a block freed here is never given back to the
// system, which a command that runs and exits does not need.
#ifdef _WIN32
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

constexpr size_t kHeader = 16;        // keeps every block 16-byte aligned, as new must
constexpr size_t kStep = 16;
constexpr size_t kLargest = 1024;     // blocks up to this many bytes (header included) are pooled
constexpr size_t kClasses = kLargest / kStep;
constexpr size_t kSlab = 64 * 1024;
constexpr uint32_t kFromMalloc = 0xFFFFFFFFu;

struct FreeBlock {
  FreeBlock* next;
};

thread_local FreeBlock* t_free[kClasses + 1] = {};

void* Refill(size_t cls) {
  const size_t size = cls * kStep;
  auto* slab = static_cast<unsigned char*>(std::malloc(kSlab));
  if (!slab) return nullptr;
  for (size_t at = size; at + size <= kSlab; at += size) {  // all but the first go to the list
    auto* block = reinterpret_cast<FreeBlock*>(slab + at);
    block->next = t_free[cls];
    t_free[cls] = block;
  }
  return slab;
}

void* Allocate(size_t bytes) {
  const size_t whole = bytes + kHeader;
  unsigned char* block;
  uint32_t tag;
  if (whole <= kLargest) {
    const size_t cls = (whole + kStep - 1) / kStep;
    FreeBlock* head = t_free[cls];
    if (head) {
      t_free[cls] = head->next;
      block = reinterpret_cast<unsigned char*>(head);
    } else {
      block = static_cast<unsigned char*>(Refill(cls));
    }
    tag = static_cast<uint32_t>(cls);
  } else {
    block = static_cast<unsigned char*>(std::malloc(whole));
    tag = kFromMalloc;
  }
  if (!block) return nullptr;
  *reinterpret_cast<uint32_t*>(block) = tag;
  return block + kHeader;
}

void Release(void* p) {
  if (!p) return;
  unsigned char* block = static_cast<unsigned char*>(p) - kHeader;
  const uint32_t tag = *reinterpret_cast<uint32_t*>(block);
  if (tag == kFromMalloc) {
    std::free(block);
    return;
  }
  auto* freed = reinterpret_cast<FreeBlock*>(block);
  freed->next = t_free[tag];
  t_free[tag] = freed;
}

}  // namespace

void* operator new(size_t bytes) {
  if (void* p = Allocate(bytes)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t bytes) { return operator new(bytes); }
void* operator new(size_t bytes, const std::nothrow_t&) noexcept { return Allocate(bytes); }
void* operator new[](size_t bytes, const std::nothrow_t&) noexcept { return Allocate(bytes); }
void operator delete(void* p) noexcept { Release(p); }
void operator delete[](void* p) noexcept { Release(p); }
void operator delete(void* p, size_t) noexcept { Release(p); }
void operator delete[](void* p, size_t) noexcept { Release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Release(p); }
#endif
