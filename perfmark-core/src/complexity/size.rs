//! The size of an argument, for `complexity = "…"`: the n its time is
//! fitted against.

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

/// The size of a perf test's argument: the `n` that `complexity = "…"`
/// fits the time's growth against (`#[perf_test(args = [..], complexity =
/// "n log n")]`).
///
/// Implemented for the integer types (the value itself; a negative one
/// reads as 0, which the check refuses), for strings and collections (their
/// length), and through references, `Box`, `Rc` and `Arc`. Implement it for
/// an argument type of your own:
///
/// ```
/// struct Graph { nodes: usize, edges: usize }
///
/// impl perfmark_core::Size for Graph {
///     fn size(&self) -> u64 {
///         (self.nodes + self.edges) as u64
///     }
/// }
/// ```
///
/// Sizes must be at least 1 (log n is taken of them) and at least four of
/// them distinct.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a size: `complexity` fits the time against the size of each argument",
    label = "this parameter's type does not implement `perfmark::Size`",
    note = "`perfmark::Size` is implemented for the integer types, strings and collections (their \
            length); implement it for your own type (`fn size(&self) -> u64`)"
)]
pub trait Size {
    /// The size `n`, at least 1 for a usable argument.
    fn size(&self) -> u64;
}

macro_rules! unsigned {
    ($($t:ty)*) => {$(
        impl Size for $t {
            fn size(&self) -> u64 {
                u64::try_from(*self).unwrap_or(u64::MAX)
            }
        }
    )*};
}

macro_rules! signed {
    ($($t:ty)*) => {$(
        impl Size for $t {
            /// The value; a negative one reads as 0 (not a size).
            fn size(&self) -> u64 {
                u64::try_from(*self).unwrap_or(if *self < 0 { 0 } else { u64::MAX })
            }
        }
    )*};
}

unsigned!(u8 u16 u32 u64 u128 usize);
signed!(i8 i16 i32 i64 i128 isize);

macro_rules! by_len {
    ($($t:ty),* $(,)?) => {$(
        impl<T> Size for $t {
            fn size(&self) -> u64 {
                self.len() as u64
            }
        }
    )*};
}

by_len!(
    [T],
    Vec<T>,
    VecDeque<T>,
    LinkedList<T>,
    BTreeSet<T>,
    HashSet<T>,
    BinaryHeap<T>
);

impl<T, const N: usize> Size for [T; N] {
    fn size(&self) -> u64 {
        N as u64
    }
}

impl<K, V> Size for BTreeMap<K, V> {
    fn size(&self) -> u64 {
        self.len() as u64
    }
}

impl<K, V, S> Size for HashMap<K, V, S> {
    fn size(&self) -> u64 {
        self.len() as u64
    }
}

impl Size for str {
    fn size(&self) -> u64 {
        self.len() as u64
    }
}

impl Size for String {
    fn size(&self) -> u64 {
        self.len() as u64
    }
}

macro_rules! through {
    ($($t:ty),* $(,)?) => {$(
        impl<T: Size + ?Sized> Size for $t {
            fn size(&self) -> u64 {
                (**self).size()
            }
        }
    )*};
}

through!(&T, &mut T, Box<T>, Rc<T>, Arc<T>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_of_numbers_and_collections() {
        assert_eq!(1000usize.size(), 1000);
        assert_eq!(7u8.size(), 7);
        assert_eq!((-5i32).size(), 0);
        assert_eq!(u128::MAX.size(), u64::MAX);
        assert_eq!(vec![1, 2, 3].size(), 3);
        assert_eq!("hello".size(), 5);
        assert_eq!((&"hello").size(), 5);
        assert_eq!([0u8; 16].size(), 16);
        assert_eq!(Box::new(vec![0; 4]).size(), 4);
        assert_eq!(HashSet::from([1, 2]).size(), 2);
    }
}
