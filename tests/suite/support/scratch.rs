//! A scratch folder for one test's files, removed when the test ends, pass or fail.

use std::path::{Path, PathBuf};

/// A temporary folder; dropping it removes the folder and everything in it.
pub struct Scratch(tempfile::TempDir);

/// A fresh scratch folder.
pub fn scratch() -> Scratch {
    Scratch(tempfile::tempdir().expect("a temporary folder"))
}

impl Scratch {
    /// The folder.
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// `name` inside the folder (nothing is written).
    pub fn join(&self, name: &str) -> PathBuf {
        self.path().join(name)
    }

    /// Writes `bytes` to `name` inside the folder, making the folders on its way; its path.
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("a folder in the scratch folder");
        }
        std::fs::write(&path, bytes).expect("a file in the scratch folder");
        path
    }
}
