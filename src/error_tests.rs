//! The messages and exit codes of the typed job failures: each prints
//! what the command line has always printed for it.

use super::*;

#[test]
fn layout_failures_name_the_family_the_violations_and_the_file() {
    let violations = vec![Violation::DuplicateNode(3), Violation::BadBox(7)];
    let listed: Vec<String> = violations.iter().map(ToString::to_string).collect();
    let e = Error::from(LayoutFailure::Illegal {
        kind: LayoutKind::FatTree,
        total: 2,
        violations,
    });
    assert_eq!(
        e.to_string(),
        format!(
            "the fat-tree construction produced an illegal layout (2 violations); nothing was written:\n  {}\n  {}",
            listed[0], listed[1]
        )
    );
    assert_eq!(e.exit_code(), 1);
    let e = Error::from(LayoutFailure::CsvGeometry(std::io::Error::other(
        "disk full",
    )));
    assert_eq!(e.to_string(), "writing the CSV geometry: disk full");
    assert_eq!(e.exit_code(), 1);
}

#[test]
fn simulation_failures_name_the_cell_they_failed_on() {
    let e = Error::from(SimulationFailure::Claim {
        terminals: 64,
        claim: "Lemma 3 fails".into(),
    });
    assert_eq!(e.to_string(), "N = 64: Lemma 3 fails");
    assert_eq!(e.exit_code(), 1);
    let source = RouteFailure::Rounds {
        rounds: 9,
        undelivered: 4,
    };
    let e = Error::from(SimulationFailure::WireDelay {
        layout: "layout fp.yaml".into(),
        processors: 256,
        source,
    });
    assert_eq!(
        e.to_string(),
        "layout fp.yaml n = 256: 4 messages undelivered after 9 rounds"
    );
    let e = Error::from(SimulationFailure::WormholeRun {
        scheme: Scheme::Worm,
        processors: 64,
        source: WormError::ZeroQueue,
    });
    assert_eq!(
        e.to_string(),
        format!(
            "{} on 64 processors: a queue of 0 units cannot hold a flit",
            Scheme::Worm.name()
        )
    );
    let e = Error::from(SimulationFailure::OpenLoop {
        topology: Topology::Torus,
        source: OpenLoopError::Config("rate 2 is above 1".into()),
    });
    assert_eq!(
        e.to_string(),
        format!("{}: rate 2 is above 1", Topology::Torus.name())
    );
    assert_eq!(e.exit_code(), 1);
}

#[test]
fn a_construction_that_does_not_apply_is_named() {
    let e = Error::NotApplicable {
        construction: Construction::NfaOneHot,
    };
    assert_eq!(e.to_string(), "NfaOneHot does not apply");
    assert_eq!(e.exit_code(), 1);
}

#[test]
fn a_report_that_cannot_be_serialised_names_its_schema() {
    let json = serde_json::from_str::<u8>("x").unwrap_err();
    let reason = json.to_string();
    let e = Error::Render {
        schema: "fabric.route",
        source: json.into(),
    };
    assert_eq!(
        e.to_string(),
        format!("writing a fabric.route report: {reason}")
    );
    assert_eq!(e.exit_code(), 1);
    assert!(std::error::Error::source(&e).is_some());
}

#[test]
fn channel_failures_name_the_router_and_the_channel() {
    let e = Error::from(ChannelFailure::Crossing {
        channel: "stair".into(),
        a: 3,
        b: 7,
        pairs: 2,
    });
    assert_eq!(
        e.to_string(),
        "stair cannot be routed in one layer: nets 3 and 7 cross (2 crossing pairs)"
    );
    assert_eq!(e.exit_code(), 1);
    let e = Error::from(ChannelFailure::Illegal {
        router: "yacr",
        channel: "dde".into(),
        total: 1,
        violations: "  a short".into(),
    });
    assert_eq!(
        e.to_string(),
        "the yacr router produced an illegal routing of dde (1 violations); \
         nothing was written:\n  a short"
    );
    assert_eq!(e.exit_code(), 1);
    let e = Error::from(ChannelFailure::AgainstDirection {
        router: "mulch",
        channel: "dde".into(),
        against: AgainstDirection {
            per_layer: vec![(1, 34), (2, 55)],
            first: None,
        },
    });
    assert_eq!(
        e.to_string(),
        "the mulch router's routing of dde has 89 unit edge(s) against their layer's \
         direction (layer 1: 34, layer 2: 55) under --reserved; nothing was written"
    );
    assert_eq!(e.exit_code(), 1);
}
