//! What the command line's tests share.
#![allow(clippy::unwrap_used, dead_code)] // tests may panic; not every test file uses everything

use std::path::{Path, PathBuf};

/// A scratch directory of this test's own, empty.
pub fn scratch(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).unwrap();
    path
}
