//! libuv's own sizing rules, reproduced exactly for sluice's libuv policy
//! ([`Policy::Libuv`](crate::Policy::Libuv)) and for side-by-side
//! comparisons with Node: the pool size from `UV_THREADPOOL_SIZE`, the
//! slow-I/O threshold, the stack size. Sluice's own lanes are sized by
//! [`budget`](crate::budget), not by these.

/// libuv's `default_threads[4]`: the pool size when `UV_THREADPOOL_SIZE` is unset.
pub const LIBUV_DEFAULT_THREADS: usize = 4;

/// libuv's `MAX_THREADPOOL_SIZE` (1024 since libuv 1.30.0).
pub const LIBUV_MAX_THREADPOOL_SIZE: usize = 1024;

/// libuv's worker stack size since 1.45.0: `config.stack_size = 8u << 20`.
pub const LIBUV_STACK_SIZE: usize = 8 << 20;

/// libuv's `slow_work_thread_threshold()`: at most `(nthreads + 1) / 2` threads
/// may run slow I/O at once (libuv's `src/threadpool.c`).
///
/// ```
/// use sluice::compat::slow_work_thread_threshold as t;
/// assert_eq!([t(1), t(2), t(3), t(4), t(6), t(8), t(16)], [1, 1, 2, 2, 3, 4, 8]);
/// ```
pub fn slow_work_thread_threshold(nthreads: usize) -> usize {
    nthreads.div_ceil(2)
}

/// libuv's `init_threads()` sizing of the pool from the raw value of
/// `UV_THREADPOOL_SIZE`, reproduced as measured on Node v20.20.2 (libuv 1.46.0):
///
/// ```c
/// nthreads = ARRAY_SIZE(default_threads);      /* 4 */
/// val = getenv("UV_THREADPOOL_SIZE");
/// if (val != NULL)
///   nthreads = atoi(val);                      /* unsigned int = (int) strtol(val) */
/// if (nthreads == 0)
///   nthreads = 1;
/// if (nthreads > MAX_THREADPOOL_SIZE)
///   nthreads = MAX_THREADPOOL_SIZE;            /* 1024 */
/// ```
///
/// So junk is 1 thread, negative numbers wrap to huge and become 1024, and
/// values that overflow `int` wrap: `"4294967297"` is 1 thread. Every row of
/// the example below was checked against `node` on this project's machines by
/// counting `/proc/self/status` threads before and after the first `fs.stat`.
///
/// ```
/// use sluice::compat::libuv_nthreads as n;
/// assert_eq!(n(None), 4);
/// assert_eq!([n(Some("0")), n(Some("abc")), n(Some("0x10"))], [1, 1, 1]);
/// assert_eq!([n(Some("3abc")), n(Some(" 7")), n(Some("+6"))], [3, 7, 6]);
/// assert_eq!([n(Some("-1")), n(Some("2000")), n(Some("2147483648"))], [1024, 1024, 1024]);
/// assert_eq!([n(Some("4294967297")), n(Some("-99999999999999999999"))], [1, 1]);
/// assert_eq!(n(Some("0000000000000008")), 8);
/// ```
pub fn libuv_nthreads(val: Option<&str>) -> usize {
    let Some(val) = val else {
        return LIBUV_DEFAULT_THREADS;
    };
    // `atoi` is `(int) strtol(val, NULL, 10)` in glibc; `nthreads` is `unsigned int`.
    let nthreads = c_strtol(val) as i32 as u32 as usize;
    if nthreads == 0 {
        1
    } else if nthreads > LIBUV_MAX_THREADPOOL_SIZE {
        LIBUV_MAX_THREADPOOL_SIZE
    } else {
        nthreads
    }
}

/// C's `strtol(s, NULL, 10)` on a 64-bit `long`: skips leading white space,
/// takes an optional sign and the longest run of digits, saturates on overflow,
/// and yields 0 when there are no digits.
fn c_strtol(s: &str) -> i64 {
    let bytes = s.as_bytes();
    let mut i = 0;
    // C's isspace: space, \t, \n, \v, \f, \r.
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        i += 1;
    }
    let negative = match bytes.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let mut value: i64 = 0;
    while let Some(d) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
        let digit = i64::from(d - b'0');
        value = if negative {
            value.saturating_mul(10).saturating_sub(digit)
        } else {
            value.saturating_mul(10).saturating_add(digit)
        };
        i += 1;
    }
    value
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn strtol_saturates_and_wraps_like_c() {
        assert_eq!(c_strtol("99999999999999999999"), i64::MAX);
        assert_eq!(c_strtol("-99999999999999999999"), i64::MIN);
        assert_eq!(c_strtol("\t\n 12x"), 12);
        assert_eq!(c_strtol("-"), 0);
        assert_eq!(libuv_nthreads(Some("99999999999")), 1024);
        assert_eq!(libuv_nthreads(Some("-4294967295")), 1);
    }
}
