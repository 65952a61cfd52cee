#pragma once
// Telling ThreadSanitizer about an order it cannot see. oneTBB comes from the system, built without
// the sanitizer, so a hand-off that goes through it (a suspended task resumed from another thread, a
// pipeline token passed between stages) orders memory in fact but not in ThreadSanitizer's view.
// At such a hand-off the sending side calls happens_before(p) and the receiving side
// happens_after(p) on the same address. Both compile to nothing outside the tsan preset.
namespace krino::core {

#if defined(__SANITIZE_THREAD__)
inline constexpr bool kThreadSanitizer = true;
extern "C" void __tsan_acquire(void* address);
extern "C" void __tsan_release(void* address);
inline void happens_before(void* address) { __tsan_release(address); }
inline void happens_after(void* address) { __tsan_acquire(address); }
#else
inline constexpr bool kThreadSanitizer = false;
inline void happens_before(void*) {}
inline void happens_after(void*) {}
#endif

// Whether a waiting TBB task is suspended (its stack switched out) or its thread waits. Neither
// sanitizer follows oneTBB's switches between task stacks: ThreadSanitizer takes stack reuse for
// races, and AddressSanitizer cannot find a task stack's bounds, so an exception unwound on one
// leaves its frames' poison behind ("ASan is ignoring requested __asan_handle_no_return"), which a
// later call on the same stack reports as an overflow. Under either, waits block their thread.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
inline constexpr bool kWaitsSuspendTasks = !kThreadSanitizer && !kAddressSanitizer;

}  // namespace krino::core
