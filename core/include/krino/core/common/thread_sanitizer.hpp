#pragma once
// Telling ThreadSanitizer about an order it cannot see. oneTBB comes from the system, built without
// the sanitizer, so a hand-off that goes through it (a suspended task resumed from another thread, a
// pipeline token passed between stages) orders memory in fact but not in ThreadSanitizer's view.
// At such a hand-off the sending side calls happens_before(p) and the receiving side
// happens_after(p) on the same address. Both compile to nothing outside the tsan preset.
namespace krino::core {

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* address);
extern "C" void __tsan_release(void* address);
inline void happens_before(void* address) { __tsan_release(address); }
inline void happens_after(void* address) { __tsan_acquire(address); }
#else
inline void happens_before(void*) {}
inline void happens_after(void*) {}
#endif

// Whether a wait inside the oneTBB scheduler (await_callback) blocks its thread instead of
// suspending its task. Suspension switches to a resumable task's stack with swapcontext inside a
// oneTBB built without the sanitizers, which neither can follow: ThreadSanitizer takes the reused
// stacks for races, and AddressSanitizer, when an exception unwinds a suspended call, unpoisons the
// wrong stack and then reports overflows that are not there (google/sanitizers#189). Under either,
// the waiting thread blocks: fewer waits at once, the same results. The dev and release builds
// suspend.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
inline constexpr bool kWaitsBlockThreads = true;
#else
inline constexpr bool kWaitsBlockThreads = false;
#endif

}  // namespace krino::core
