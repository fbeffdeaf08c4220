//! Property tests: no input makes the parsers or the verifier panic, and
//! every accepted problem keeps its invariants.

use fabric::channel::problem::ChannelProblem;
use fabric::channel::solution::{ChannelSolution, Via, Wire};
use fabric::channel::verify::verify;
use fabric::geom::Point;
use proptest::prelude::*;

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..12).prop_map(|v| v.to_string()),
        Just("-3".to_string()),
        Just("x".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just(",".to_string()),
        Just("#".to_string()),
        Just("99999999999".to_string()),
        Just("top:".to_string()),
        Just("bottom:".to_string()),
        Just("left:".to_string()),
        Just("right:".to_string()),
        Just("name:".to_string()),
        Just("- ".to_string()),
        Just("\n".to_string()),
        Just("\t".to_string()),
        Just("é".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn channel_parsers_never_panic(tokens in proptest::collection::vec(token(), 0..40),
                                   ext in prop_oneof![Just("txt"), Just("yaml"), Just("in")]) {
        let text = tokens.join(" ");
        let file = format!("input.{ext}");
        if let Ok(p) = fabric::io::parse_channel(&text, &file) {
            prop_assert!(p.columns() > 0);
            prop_assert!(!p.nets().is_empty());
            for net in p.nets() {
                prop_assert!(net.pins.len() + net.left as usize + net.right as usize >= 2);
            }
        }
    }

    #[test]
    fn classic_rows_round_trip(top in proptest::collection::vec(0u32..6, 1..30)) {
        // Mirror the top row onto the bottom so that every net has two pins.
        let bottom: Vec<u32> = top.iter().rev().copied().collect();
        let fmt = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        let text = format!("top: {}\nbottom: {}\n", fmt(&top), fmt(&bottom));
        match fabric::io::parse_channel(&text, "t.txt") {
            Ok(p) => {
                prop_assert_eq!(p.top_labels(), top);
                prop_assert_eq!(p.bottom_labels(), bottom);
            }
            Err(e) => prop_assert!(e.message.contains("no nets") || e.message.contains("single pin"), "{}", e),
        }
    }

    #[test]
    fn verifier_never_panics_on_arbitrary_geometry(
        width in 0u32..6,
        layers in 0u32..4,
        wires in proptest::collection::vec((0u32..5, 0u32..5, -3i64..9, -3i64..9, -3i64..9, -3i64..9), 0..12),
        vias in proptest::collection::vec((0u32..5, -3i64..9, -3i64..9, 0u32..5, 0u32..5), 0..6),
    ) {
        let p = ChannelProblem::from_rows("t", &[1, 2, 0, 3, 1], &[2, 0, 3, 1, 4], &[4], &[]).unwrap();
        let s = ChannelSolution {
            name: "t".into(),
            layers,
            width,
            columns: 5,
            groups: vec![],
            wires: wires.into_iter().map(|(net, layer, a, b, c, d)| Wire {
                net, layer, from: Point::new(a, b), to: Point::new(c, d)
            }).collect(),
            vias: vias.into_iter().map(|(net, x, y, from, to)| Via {
                net, at: Point::new(x, y), from, to
            }).collect(),
        };
        let r = verify(&p, &s, None);
        prop_assert!(r.total >= r.violations.len());
        // Without wires nothing connects pins in different columns.
        if s.wires.is_empty() && layers > 0 {
            prop_assert!(!r.is_legal());
        }
    }
}
