//! The move-line parser on arbitrary text: never a panic; a parsed line prints back to text
//! that parses to the same line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use orrery_gp::notation;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(line) = notation::parse_line(text) {
        let printed = line.to_string();
        let again = notation::parse_line(&printed)
            .unwrap_or_else(|e| panic!("{printed:?}, printed from {text:?}, does not parse: {e}"));
        assert_eq!(again, line, "{printed:?} parses to another line");
    }
    let stripped = notation::strip_annotations(text);
    if notation::parse_line(&stripped).is_ok() {
        assert!(stripped.len() <= text.len());
    }
    if let Ok(h) = notation::parse_hex_ref(text) {
        assert!(format!("{h:?}").len() < 200);
    }
    if let Ok(a) = notation::parse_amounts(text) {
        assert!(!format!("{a:?}").is_empty());
    }
});
