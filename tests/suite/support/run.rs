//! The `linkup` binary run as a user runs it: a small builder for the arguments, the working
//! folder, standard input and environment, and what the run printed.

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use super::root;

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Run {
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// Standard output (invalid UTF-8 replaced).
    pub stdout: String,
    /// Standard error (invalid UTF-8 replaced).
    pub stderr: String,
}

/// One run of `linkup` being set up; by default in the repository's root with empty stdin.
pub struct Linkup {
    command: Command,
    stdin: Vec<u8>,
}

impl Linkup {
    /// `linkup ARGS`.
    pub fn new<I, S>(args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut command = Command::new(env!("CARGO_BIN_EXE_linkup"));
        command.args(args).current_dir(root());
        Linkup {
            command,
            stdin: Vec::new(),
        }
    }

    /// Runs in `dir` instead.
    pub fn dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.command.current_dir(dir);
        self
    }

    /// Gives `bytes` as standard input.
    pub fn stdin(mut self, bytes: impl AsRef<[u8]>) -> Self {
        self.stdin = bytes.as_ref().to_vec();
        self
    }

    /// Sets an environment variable.
    pub fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> Self {
        self.command.env(key, value);
        self
    }

    /// Removes an environment variable.
    pub fn env_remove(mut self, key: &str) -> Self {
        self.command.env_remove(key);
        self
    }

    /// Starts it with the three standard streams piped; the caller writes stdin.
    pub fn spawn(mut self) -> Child {
        self.command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the linkup binary runs")
    }

    /// Runs it to the end.
    pub fn run(mut self) -> Run {
        let stdin = std::mem::take(&mut self.stdin);
        let mut child = self.spawn();
        // A command that fails before reading stdin closes it: ignore the broken pipe.
        let _ = child
            .stdin
            .take()
            .expect("stdin is piped")
            .write_all(&stdin);
        let output = child.wait_with_output().expect("linkup finishes");
        Run {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

/// Runs `linkup ARGS` in the repository's root with empty stdin.
pub fn linkup<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Linkup::new(args).run()
}

/// Asserts exit code 2, nothing on stdout and one error line starting with `prefix`.
pub fn assert_one_line_error(run: &Run, prefix: &str) {
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stdout, "", "{run:?}");
    assert!(run.stderr.starts_with(prefix), "{run:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
    assert!(run.stderr.ends_with('\n'), "{run:?}");
}
