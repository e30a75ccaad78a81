// animkit.exe's operator new and delete: small blocks from per-thread free lists, large
// ones from the C runtime. The C runtime's malloc (msvcrt over the Windows heap) takes
// 2.4 times glibc's time per block, and the CLI allocates millions of small strings and
// vectors (docs/performance.md, "Windows"); a block freed here is never given back to the
// system, which a command that runs and exits does not need.
// Each thread's lists hang off a Win32 TLS slot: MinGW's thread_local goes through
// emulated TLS (a pthread key and a spin lock on every access). A slot among the TEB's 64
// inline ones (winternl.h's TlsSlots) is read there, as TlsGetValue itself does, without
// its call and the save and restore of the last error around it.
#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <winternl.h>

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

using FreeLists = FreeBlock* [kClasses + 1];

// The slot is taken on the first operator new, which comes before main, on one thread. A
// thread's lists and the blocks in them stay unused after it ends (a command's threads
// live as long as it does).
DWORD g_slot = TLS_OUT_OF_INDEXES;

// The slot taken on first use, the thread's lists made on its first use, or a slot past the
// inline ones.
FreeBlock** ThreadListsByCall() {
  const DWORD error = GetLastError();  // TlsGetValue clears it, and a caller may be about to read it
  if (g_slot == TLS_OUT_OF_INDEXES) g_slot = TlsAlloc();
  if (g_slot == TLS_OUT_OF_INDEXES) {  // no slot: every block comes from the C runtime
    SetLastError(error);
    return nullptr;
  }
  auto* lists = static_cast<FreeBlock**>(TlsGetValue(g_slot));
  if (!lists) {
    lists = static_cast<FreeBlock**>(std::calloc(1, sizeof(FreeLists)));
    if (lists) TlsSetValue(g_slot, lists);
  }
  SetLastError(error);
  return lists;
}

// NtCurrentTeb's own read (NT_TIB's Self at gs:0x30); g++ 12 takes the header's version of
// it for an access past an empty array (-Warray-bounds).
TEB* CurrentTeb() {
  TEB* teb;
  asm("movq %%gs:0x30, %0" : "=r"(teb));
  return teb;
}

FreeBlock** ThreadLists() {
  constexpr DWORD kInlineSlots = sizeof(TEB::TlsSlots) / sizeof(TEB::TlsSlots[0]);
  if (g_slot < kInlineSlots) {
    if (auto* lists = static_cast<FreeBlock**>(CurrentTeb()->TlsSlots[g_slot])) return lists;
  }
  return ThreadListsByCall();
}

void* Refill(FreeBlock** t_free, size_t cls) {
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
  FreeBlock** t_free = whole <= kLargest ? ThreadLists() : nullptr;
  if (t_free) {
    const size_t cls = (whole + kStep - 1) / kStep;
    FreeBlock* head = t_free[cls];
    if (head) {
      t_free[cls] = head->next;
      block = reinterpret_cast<unsigned char*>(head);
    } else {
      block = static_cast<unsigned char*>(Refill(t_free, cls));
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
  FreeBlock** t_free = ThreadLists();
  if (!t_free) return;  // no lists for this thread: the block, inside a slab, stays unused
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
