use super::*;

#[test]
fn byte_order_mark_is_ignored() {
    for (text, file) in [
        ("\u{feff}top: 1 0\nbottom: 0 1\n", "a.txt"),
        ("\u{feff}1 0 1\n2 1 0\n", "a.in"),
        ("\u{feff}top: [1, 0]\nbottom: [0, 1]\n", "a.yaml"),
    ] {
        let p = parse_channel(text, file).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.columns(), 2);
    }
}

#[test]
fn classic_with_sides_and_comments() {
    let text = "# a channel\ntop: 1 0 2\nbottom: 2 1 0 # trailing\nright: 2\n";
    let p = parse_channel(text, "x/ch.txt").unwrap();
    assert_eq!(p.name(), "ch");
    assert_eq!(p.columns(), 3);
    assert_eq!(p.right().len(), 1);
}

#[test]
fn classic_errors_name_line_and_column() {
    let e = parse_channel("top: 1 2 x\nbottom: 1 2 0\n", "f.txt").unwrap_err();
    assert_eq!((e.line, e.column), (1, 10), "{e}");
    assert!(
        e.to_string()
            .starts_with("f.txt:1:10: 'x' is not an integer"),
        "{e}"
    );
    let e = parse_channel("top: 1 2\nbottom: 1 -2\n", "f.txt").unwrap_err();
    assert_eq!((e.line, e.column), (2, 11));
    assert!(e.message.contains("negative"));
    let e = parse_channel("top: 1 2 3\nbottom: 1 2\n", "f.txt").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("unequal rows"));
    let e = parse_channel("top: 1 2 0\nbottom: 1 2 3\n", "f.txt").unwrap_err();
    assert_eq!((e.line, e.column), (2, 13));
    assert!(e.message.contains("single pin"));
    let e = parse_channel("", "f.txt").unwrap_err();
    assert!(e.message.contains("no `top:` row"));
}

#[test]
fn yacr_form_is_detected_and_read_bottom_then_top() {
    let text = "1 0 5\n2 5 0\n3 6 6\n";
    assert_eq!(detect_form(text, "in.in"), ChannelForm::Yacr);
    let p = parse_channel(text, "in.in").unwrap();
    assert_eq!(p.top_labels(), vec![5, 0, 6]);
    assert_eq!(p.bottom_labels(), vec![0, 5, 6]);
    let e = parse_channel("1 0 5\n3 5 0\n", "in.in").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.to_string().contains("YACR2"), "{e}");
}

#[test]
fn yaml_form_reads_flow_and_block_lists() {
    let text = "name: demo\ntop:    [2, 4, 0]\nbottom:\n  - 4\n  - 2\n  - 0\n";
    let p = parse_channel(text, "d.yaml").unwrap();
    assert_eq!(p.name(), "demo");
    assert_eq!(p.top_labels(), vec![2, 4, 0]);
    let e = parse_channel("top: [1, -3]\nbottom: [1, 3]\n", "d.yaml").unwrap_err();
    assert_eq!((e.line, e.column), (1, 10), "{e}");
    let e = parse_channel("top: [1, 3]\nbottom:\n  - 1\n  - x\n", "d.yaml").unwrap_err();
    assert_eq!((e.line, e.column), (4, 5), "{e}");
    let e = parse_channel("top: [1, 3]\nbottom:\n  - 1\n  - -3\n", "d.yaml").unwrap_err();
    assert_eq!((e.line, e.column), (4, 5), "{e}");
    let e = parse_channel("top: [\"1\", 3]\nbottom: [1, 3]\n", "d.yaml").unwrap_err();
    assert!(e.message.contains("not an integer"), "{e}");
    let e = parse_channel("top: [1, 3\nbottom: [1, 3]\n", "d.yaml").unwrap_err();
    assert!(e.line > 0, "{e}");
}
