//! A hint to the processor to start loading a value into the cache.
//!
//! The one `unsafe` block of the crate: the standard library has no safe
//! prefetch on stable Rust (`_mm_prefetch` is an `unsafe` intrinsic because
//! it takes a raw pointer, and the `prefetch` crate needs a nightly
//! compiler). A prefetch never reads the value into the program, never
//! faults and changes no state the program can observe; here it is only
//! given the address of a value the caller holds a reference to.

/// Starts loading the cache line of `value` (a no-op off x86-64).
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn read<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` only hints the cache; it does not dereference
    // the pointer in the program's semantics, and the pointer comes from a
    // live reference. SSE, the intrinsic's target feature, is part of the
    // x86-64 baseline.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
