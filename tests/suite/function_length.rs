//! Issue 13: no function over about 80 lines unless its doc says why it is long ("long
//! because ..."). Scans the Rust sources of `src/`, `tests/` and `benches/` with a small lexer
//! (comments, strings, raw strings and char literals skipped) and measures each function from
//! its `fn` line to its closing brace.

use std::path::{Path, PathBuf};

use crate::support::root;

/// The most lines a function may take without a reason in its doc.
const MAX_LINES: usize = 80;

/// One function found in a source file.
#[derive(Debug)]
struct Function {
    name: String,
    /// 1-based line of the `fn` keyword.
    line: usize,
    lines: usize,
    /// Its `///` doc comment, joined.
    doc: String,
}

/// The functions with a body in `text`.
fn functions(text: &str) -> Vec<Function> {
    let bytes = text.as_bytes();
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    // (name, fn line, brace depth the body opens at, bracket depth at `fn`); `None` depth
    // until its `{` is seen.
    let mut open: Vec<(String, usize, Option<usize>, usize)> = Vec::new();
    let mut found = Vec::new();
    let mut depth = 0;
    // Open `(` and `[`: a `;` inside them (`[u8; 4]`) does not end a declaration.
    let mut brackets = 0;
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        let ident_before = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if let Some(len) = (!ident_before).then(|| raw_string(rest)).flatten() {
            i += len;
        } else if bytes[i] == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if bytes[i] == b'\'' {
            i += char_literal(rest).unwrap_or(1);
        } else if !ident_before && rest.starts_with("fn ") {
            let name: String = rest[3..]
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                open.push((name, line_of(i), None, brackets));
            }
            i += 3;
        } else if bytes[i] == b'(' || bytes[i] == b'[' {
            brackets += 1;
            i += 1;
        } else if bytes[i] == b')' || bytes[i] == b']' {
            brackets -= 1;
            i += 1;
        } else if bytes[i] == b';' {
            // A declaration without a body (a trait's method).
            if matches!(open.last(), Some((_, _, None, b)) if *b == brackets) {
                open.pop();
            }
            i += 1;
        } else if bytes[i] == b'{' {
            if let Some(last) = open.last_mut().filter(|f| f.2.is_none()) {
                last.2 = Some(depth);
            }
            depth += 1;
            i += 1;
        } else if bytes[i] == b'}' {
            depth -= 1;
            if matches!(open.last(), Some((_, _, Some(d), _)) if *d == depth) {
                let (name, line, _, _) = open.pop().unwrap();
                let end = line_of(i);
                found.push(Function {
                    doc: doc_above(text, line),
                    name,
                    line,
                    lines: end - line + 1,
                });
            }
            i += 1;
        } else {
            i += 1;
        }
    }
    found
}

/// The length of a raw string literal (`r"..."`, `br#"..."#`) at the start of `text`.
fn raw_string(text: &str) -> Option<usize> {
    let after_b = text.strip_prefix('b').unwrap_or(text);
    let after_r = after_b.strip_prefix('r')?;
    let hashes = after_r.len() - after_r.trim_start_matches('#').len();
    let body = after_r[hashes..].strip_prefix('"')?;
    let close = format!("\"{}", "#".repeat(hashes));
    let end = body.find(&close)?;
    Some(text.len() - body.len() + end + close.len())
}

/// The length of a char literal (`'x'`, `'\n'`, `'\u{7f}'`) at the start of `text`; `None`
/// for a lifetime or a label.
fn char_literal(text: &str) -> Option<usize> {
    let mut chars = text.char_indices().skip(1);
    let (_, first) = chars.next()?;
    if first == '\\' {
        return text[2..].find('\'').map(|e| e + 3);
    }
    let (at, next) = chars.next()?;
    (next == '\'').then_some(at + 1)
}

/// The `///` lines just above line `line` (attributes between are passed over).
fn doc_above(text: &str, line: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut doc = Vec::new();
    for l in lines[..line - 1].iter().rev().map(|l| l.trim()) {
        if let Some(d) = l.strip_prefix("///") {
            doc.push(d.trim());
        } else if !l.starts_with("#[") {
            break;
        }
    }
    doc.reverse();
    doc.join(" ")
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_lexer_measures_functions_past_strings_comments_and_lifetimes() {
    let text = "/// Short.\nfn a<'x>(s: &'x str, _: [u8; 2]) -> char {\n    let _ = \"}\";\n    let _ = r#\"{\"#;\n    // }\n    '{'\n}\n\ntrait T {\n    fn b(&self);\n    fn c(&self) {\n    }\n}\n";
    let found: Vec<(String, usize, usize, String)> = functions(text)
        .into_iter()
        .map(|f| (f.name, f.line, f.lines, f.doc))
        .collect();
    assert_eq!(
        found,
        [
            ("a".to_string(), 2, 6, "Short.".to_string()),
            ("c".to_string(), 11, 2, String::new()),
        ]
    );
}

#[test]
fn long_functions_say_why_in_their_doc() {
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches"] {
        rust_files(&root().join(dir), &mut files);
    }
    let mut unexplained = Vec::new();
    for path in &files {
        let file = path.strip_prefix(root()).unwrap().to_str().unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        for f in functions(&text) {
            if f.lines <= MAX_LINES || f.doc.to_lowercase().contains("long because") {
                continue;
            }
            unexplained.push(format!("{file}:{} {} ({} lines)", f.line, f.name, f.lines));
        }
    }
    assert!(
        unexplained.is_empty(),
        "functions over {MAX_LINES} lines with no \"long because\" in their doc: split them or \
         say why:\n{}",
        unexplained.join("\n")
    );
}
