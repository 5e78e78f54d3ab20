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

impl<T: Copy, const N: usize> Short<T, N> {
    /// The empty list, its unused room holding `filler` (for constants, where
    /// [`Default::default`] cannot be called).
    pub const fn empty(filler: T) -> Self {
        Short { len: 0, items: [filler; N] }
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

    /// Lengthen the list by `k` default items (as many as fit, if fewer) and hand them back to
    /// be filled in.
    pub fn grow(&mut self, k: usize) -> &mut [T] {
        let from = usize::from(self.len);
        let to = from.saturating_add(k).min(N).min(usize::from(u8::MAX));
        self.len = to as u8;
        &mut self.items[from..to]
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
        let mut g = Short::<u8, 4>::default();
        assert!(g.push(1));
        g.grow(2).copy_from_slice(&[5, 6]);
        assert_eq!(&*g, &[1, 5, 6]);
        assert_eq!(g.grow(3).len(), 1, "only what fits");
        assert_eq!(&*g, &[1, 5, 6, 0]);
    }
}
