//! The viewer's data block: a small JSON writer (strings, integers and
//! packed arrays only) and the packing of integer arrays as base64 of
//! little-endian `Int32` values, which the page decodes straight into a
//! typed array.

use std::fmt::Write;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 (RFC 4648, with padding) of `bytes`.
pub fn base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `values` as base64 of their little-endian bytes.
pub fn base64_i32(values: &[i32]) -> String {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    base64(&bytes)
}

/// `s` as a JSON string literal; `<`, `>` and `&` are escaped too, so the
/// text can sit inside a `<script>` element.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '<' | '>' | '&' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON object written field by field.
pub struct JsonObject {
    text: String,
}

impl Default for JsonObject {
    /// `{` and no fields yet.
    fn default() -> JsonObject {
        JsonObject {
            text: String::from("{"),
        }
    }
}

impl JsonObject {
    /// `{` and no fields yet.
    pub fn new() -> JsonObject {
        JsonObject::default()
    }

    fn key(&mut self, key: &str) {
        if self.text.len() > 1 {
            self.text.push(',');
        }
        self.text.push_str(&json_string(key));
        self.text.push(':');
    }

    /// A string field.
    pub fn string(&mut self, key: &str, value: &str) {
        self.key(key);
        self.text.push_str(&json_string(value));
    }

    /// An integer field.
    pub fn int(&mut self, key: &str, value: i64) {
        self.key(key);
        let _ = write!(self.text, "{value}");
    }

    /// An array of strings.
    pub fn strings(&mut self, key: &str, values: &[String]) {
        self.key(key);
        let items: Vec<String> = values.iter().map(|v| json_string(v)).collect();
        let _ = write!(self.text, "[{}]", items.join(","));
    }

    /// An array of `[key, value]` string pairs.
    pub fn pairs(&mut self, key: &str, values: &[(String, String)]) {
        self.key(key);
        let items: Vec<String> = values
            .iter()
            .map(|(k, v)| format!("[{},{}]", json_string(k), json_string(v)))
            .collect();
        let _ = write!(self.text, "[{}]", items.join(","));
    }

    /// Integers packed with [`base64_i32`].
    pub fn packed(&mut self, key: &str, values: &[i32]) {
        self.key(key);
        self.text.push('"');
        self.text.push_str(&base64_i32(values));
        self.text.push('"');
    }

    /// The object's text.
    pub fn finish(mut self) -> String {
        self.text.push('}');
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_4648_vectors() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
    }

    #[test]
    fn integers_are_little_endian() {
        // 1 = 01 00 00 00, -1 = ff ff ff ff.
        assert_eq!(
            base64_i32(&[1, -1]),
            base64(&[1, 0, 0, 0, 255, 255, 255, 255])
        );
    }

    #[test]
    fn strings_cannot_close_a_script_element() {
        let s = json_string("a\"</script>\n");
        assert_eq!(s, "\"a\\\"\\u003c/script\\u003e\\n\"");
    }
}
