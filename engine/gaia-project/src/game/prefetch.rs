//! Asking the processor early for memory a listing is about to read. A stored state (a
//! bot's tree, a study's saved positions, the records' states) is listed from memory far from
//! the last one listed, and its reads wait on each other: the state leads to the seat's
//! player, the player to its grants. Asked for at once, the lines arrive together instead of
//! one wait after another.

/// Bytes of a cache line.
#[cfg(target_arch = "x86_64")]
const LINE: usize = 64;

/// Asks for the bytes of `value` itself (not what it points to) to be brought into the
/// cache. Only a hint: nothing is read that the program sees, and on processors without the
/// instruction it does nothing.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let start = (value as *const T).cast::<i8>();
        for offset in (0..size_of::<T>()).step_by(LINE) {
            // SAFETY: a prefetch never faults and changes nothing the program can observe;
            // the address lies within `value`, which the borrow keeps alive.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset)) };
        }
    }
}
