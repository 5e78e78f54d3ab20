//! [`Short`]: a short list kept in place.

use serde::Serialize;

/// A short list kept in place, with no allocation: at most `N` items. It reads as a slice and
/// serializes as a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Short<T, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> Default for Short<T, N> {
    fn default() -> Self {
        Short { len: 0, items: [T::default(); N] }
    }
}

impl<T: Copy + Default, const N: usize> Short<T, N> {
    /// Add `x` at the end; `false` (and nothing added) if the list is full.
    pub fn push(&mut self, x: T) -> bool {
        match self.items.get_mut(usize::from(self.len)) {
            Some(slot) => {
                *slot = x;
                self.len += 1;
                true
            }
            None => false,
        }
    }
}

impl<T, const N: usize> std::ops::Deref for Short<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a Short<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Serialize, const N: usize> Serialize for Short<T, N> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lists_hold_what_fits_read_as_slices_and_serialize_as_lists() {
        let mut s = Short::<u8, 3>::default();
        assert!(s.push(4) && s.push(9) && s.push(1));
        assert!(!s.push(7), "full");
        assert_eq!(&*s, &[4, 9, 1]);
        assert_eq!(serde_json::to_string(&s).ok().as_deref(), Some("[4,9,1]"));
        assert_eq!(serde_json::to_string(&Short::<u8, 3>::default()).ok().as_deref(), Some("[]"));
    }
}
