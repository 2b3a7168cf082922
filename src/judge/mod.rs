//! Back-end judges from the seed documents: programs that read a whole problem input on stdin
//! and print one verdict per query, as an online judge would run them.
//!
//! They share [`Input`], a reader that scans bytes directly (no `String` per token) and names the
//! line of any malformed or missing token.

pub mod gomoku;
pub mod link;
pub mod strokes;

use thiserror::Error;

/// Why a judge input could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// The input ended where more was expected.
    #[error("line {line}: input ends early: expected {expected}")]
    Truncated {
        /// 1-based line where the input ended.
        line: usize,
        /// What was expected.
        expected: String,
    },
    /// A token is not what was expected.
    #[error("line {line}: expected {expected}, found `{found}`")]
    Malformed {
        /// 1-based line of the token.
        line: usize,
        /// What was expected.
        expected: String,
        /// The token (cut to 20 characters).
        found: String,
    },
    /// A value is outside the range the problem allows.
    #[error("line {line}: {message}")]
    OutOfRange {
        /// 1-based line of the value.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// A byte scanner over a whole judge input, counting lines.
pub struct Input<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
}

impl<'a> Input<'a> {
    /// A scanner at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Input {
            bytes,
            at: 0,
            line: 1,
        }
    }

    /// The 1-based line of the next unread byte.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Skips white space (counting newlines) and returns whether any input is left.
    pub fn skip_space(&mut self) -> bool {
        while let Some(&b) = self.bytes.get(self.at) {
            match b {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {}
                _ => return true,
            }
            self.at += 1;
        }
        false
    }

    /// Whether only white space is left.
    pub fn at_end(&mut self) -> bool {
        !self.skip_space()
    }

    /// The next white-space separated token as bytes.
    pub fn token(&mut self, expected: &str) -> Result<&'a [u8], ParseError> {
        if !self.skip_space() {
            return Err(ParseError::Truncated {
                line: self.line,
                expected: expected.to_string(),
            });
        }
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| !b.is_ascii_whitespace())
        {
            self.at += 1;
        }
        Ok(&self.bytes[start..self.at])
    }

    /// The next token as an unsigned integer no larger than `max`.
    pub fn uint(&mut self, expected: &str, max: u64) -> Result<u64, ParseError> {
        if !self.skip_space() {
            return Err(ParseError::Truncated {
                line: self.line,
                expected: expected.to_string(),
            });
        }
        let start = self.at;
        let mut value: u64 = 0;
        while let Some(&b) = self.bytes.get(self.at) {
            if !b.is_ascii_digit() {
                break;
            }
            value = value.saturating_mul(10).saturating_add(u64::from(b - b'0'));
            self.at += 1;
        }
        let ends_well = self
            .bytes
            .get(self.at)
            .is_none_or(|b| b.is_ascii_whitespace());
        if self.at == start || !ends_well {
            self.at = start;
            let token = self.token(expected)?;
            return Err(self.malformed(expected, token));
        }
        if value > max {
            return Err(ParseError::OutOfRange {
                line: self.line,
                message: format!("{expected} must be at most {max}, found {value}"),
            });
        }
        Ok(value)
    }

    /// The rest of the current line without its `\n` (a `\r` before it is kept), moving to the
    /// start of the next line; `None` when no input is left. The returned line's number is
    /// [`Input::line`] before the call.
    pub fn next_line(&mut self) -> Option<&'a [u8]> {
        let rest = self.bytes.get(self.at..).filter(|rest| !rest.is_empty())?;
        match rest.iter().position(|&b| b == b'\n') {
            Some(len) => {
                self.at += len + 1;
                self.line += 1;
                Some(&rest[..len])
            }
            None => {
                self.at = self.bytes.len();
                Some(rest)
            }
        }
    }

    /// A malformed-token error for `token` on the current line.
    pub fn malformed(&self, expected: &str, token: &[u8]) -> ParseError {
        let text = String::from_utf8_lossy(token);
        ParseError::Malformed {
            line: self.line,
            expected: expected.to_string(),
            found: text.chars().take(20).collect(),
        }
    }

    /// An out-of-range error on the current line.
    pub fn out_of_range(&self, message: String) -> ParseError {
        ParseError::OutOfRange {
            line: self.line,
            message,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_numbers_across_lines() {
        let mut input = Input::new(b" 12\n\n 7 ");
        assert_eq!(input.uint("n", 100), Ok(12));
        assert_eq!(input.uint("m", 100), Ok(7));
        assert_eq!(input.line(), 3);
        assert!(input.at_end());
    }

    #[test]
    fn names_the_line_of_a_bad_token() {
        let mut input = Input::new(b"1\n2x\n");
        input.uint("n", 9).unwrap();
        assert_eq!(
            input.uint("m", 9).unwrap_err().to_string(),
            "line 2: expected m, found `2x`"
        );
    }

    #[test]
    fn truncated_input_names_the_last_line() {
        let mut input = Input::new(b"1\n");
        input.uint("n", 9).unwrap();
        assert_eq!(
            input.uint("m", 9).unwrap_err().to_string(),
            "line 2: input ends early: expected m"
        );
    }

    #[test]
    fn next_line_returns_the_rest_of_each_line() {
        let mut input = Input::new(b"3 \r\nab\n\nlast");
        assert_eq!(input.uint("t", 9), Ok(3));
        assert_eq!(input.next_line(), Some(&b" \r"[..]));
        assert_eq!(input.line(), 2);
        assert_eq!(input.next_line(), Some(&b"ab"[..]));
        assert_eq!(input.next_line(), Some(&b""[..]));
        assert_eq!(input.next_line(), Some(&b"last"[..]));
        assert_eq!(input.line(), 4);
        assert_eq!(input.next_line(), None);
        assert_eq!(Input::new(b"").next_line(), None);
    }

    #[test]
    fn range_is_checked() {
        let mut input = Input::new(b"1001");
        assert_eq!(
            input.uint("n", 1000).unwrap_err().to_string(),
            "line 1: n must be at most 1000, found 1001"
        );
    }
}
