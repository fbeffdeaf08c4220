use super::super::{Edge, Node};
use super::*;

fn node(id: u32, min: (i64, i64), max: (i64, i64)) -> Node {
    Node {
        id,
        kind: "switch".into(),
        level: 0,
        min: P3::xy(min.0, min.1),
        max: P3::xy(max.0, max.1),
    }
}

fn edge(id: u32, from: u32, to: u32, path: &[(i64, i64)]) -> Edge {
    Edge {
        id,
        from,
        to,
        path: path.iter().map(|&(x, y)| P3::xy(x, y)).collect(),
    }
}

/// Four point nodes around a cross: 0 left, 1 right, 2 bottom, 3 top.
fn cross() -> Embedding {
    Embedding {
        network: "test".into(),
        dimensions: 2,
        nodes: vec![
            node(0, (0, 2), (0, 2)),
            node(1, (4, 2), (4, 2)),
            node(2, (2, 0), (2, 0)),
            node(3, (2, 4), (2, 4)),
        ],
        edges: vec![
            edge(0, 0, 1, &[(0, 2), (4, 2)]),
            edge(1, 2, 3, &[(2, 0), (2, 4)]),
        ],
        ..Default::default()
    }
}

#[test]
fn a_crossing_is_legal() {
    let c = check(&cross());
    assert!(c.is_legal(), "{:?}", c.violations);
    assert_eq!(c.crossings, 1);
}

fn fails(e: &Embedding, want: impl Fn(&Violation) -> bool) {
    let c = check(e);
    assert!(!c.is_legal());
    assert!(c.violations.iter().any(want), "{:?}", c.violations);
}

#[test]
fn each_fault_is_caught() {
    // Overlapping boxes.
    let mut e = cross();
    e.nodes[1] = node(1, (-1, 2), (0, 3));
    fails(&e, |v| matches!(v, Violation::Overlap { .. }));
    // A diagonal step.
    let mut e = cross();
    e.edges[0].path = vec![P3::xy(0, 2), P3::xy(4, 3)];
    fails(&e, |v| matches!(v, Violation::Diagonal { .. }));
    // Ends outside their nodes.
    let mut e = cross();
    e.edges[0].path = vec![P3::xy(0, 1), P3::xy(4, 1)];
    fails(&e, |v| matches!(v, Violation::StartOutside { .. }));
    fails(&e, |v| matches!(v, Violation::EndOutside { .. }));
    // Two edges on one unit grid edge.
    let mut e = cross();
    e.edges
        .push(edge(2, 0, 1, &[(0, 2), (1, 2), (1, 3), (4, 3), (4, 2)]));
    fails(&e, |v| matches!(v, Violation::SharedGridEdge { .. }));
    // Through a foreign node.
    let mut e = cross();
    e.nodes.push(node(9, (3, 2), (3, 2)));
    fails(&e, |v| {
        matches!(v, Violation::ThroughForeignNode { node: 9, .. })
    });
    // A knock-knee: both paths turn at (2, 2).
    let mut e = cross();
    e.edges[0].path = vec![P3::xy(0, 2), P3::xy(2, 2), P3::xy(2, 0)];
    e.edges[0].to = 2;
    e.edges[1].path = vec![P3::xy(4, 2), P3::xy(2, 2), P3::xy(2, 4)];
    e.edges[1].from = 1;
    fails(&e, |v| matches!(v, Violation::SharedTurn { .. }));
    // Three paths through one point.
    let mut e = cross();
    e.dimensions = 3;
    e.nodes.push(Node {
        id: 4,
        kind: "switch".into(),
        level: 0,
        min: P3::new(2, 2, -2),
        max: P3::new(2, 2, -2),
    });
    e.nodes.push(Node {
        id: 5,
        kind: "switch".into(),
        level: 0,
        min: P3::new(2, 2, 2),
        max: P3::new(2, 2, 2),
    });
    e.edges.push(Edge {
        id: 2,
        from: 4,
        to: 5,
        path: vec![P3::new(2, 2, -2), P3::new(2, 2, 2)],
    });
    fails(&e, |v| matches!(v, Violation::ThreePaths { .. }));
    // Ids and references.
    let mut e = cross();
    e.edges[1].id = 0;
    fails(&e, |v| matches!(v, Violation::DuplicateEdge(0)));
    let mut e = cross();
    e.edges[1].to = 7;
    fails(&e, |v| matches!(v, Violation::UnknownNode { node: 7, .. }));
    let mut e = cross();
    e.nodes[3].id = 0;
    fails(&e, |v| matches!(v, Violation::DuplicateNode(0)));
    // A 2-D embedding off the plane.
    let mut e = cross();
    e.edges[0].path[1].z = 1;
    fails(&e, |v| matches!(v, Violation::NotPlanarZ { .. }));
    // A path through one of its own points twice, and a bad dimension.
    let mut e = cross();
    e.edges[0].path = vec![
        P3::xy(0, 2),
        P3::xy(3, 2),
        P3::xy(3, 3),
        P3::xy(1, 3),
        P3::xy(1, 1),
        P3::xy(4, 1),
        P3::xy(4, 2),
    ];
    e.edges.pop();
    fails(&e, |v| matches!(v, Violation::SelfIntersect { .. }));
    let mut e = cross();
    e.dimensions = 7;
    fails(&e, |v| matches!(v, Violation::BadDimensions(7)));
    // Coordinates spanning all of i64 are refused, not a crash.
    let mut e = cross();
    e.nodes[0].min.x = i64::MIN;
    e.nodes[1].max.x = i64::MAX;
    fails(&e, |v| {
        matches!(v, Violation::TooLarge { .. } | Violation::BadBox(_))
    });
    // Empty path and a repeated corner.
    let mut e = cross();
    e.edges[0].path.clear();
    fails(&e, |v| matches!(v, Violation::EmptyPath(0)));
    let mut e = cross();
    e.edges[0].path.insert(1, P3::xy(0, 2));
    fails(&e, |v| matches!(v, Violation::RepeatedCorner { .. }));
}

#[test]
fn parallel_paths_touching_at_a_point_are_refused() {
    // Two paths along the same line meeting end to end at (2, 2) would
    // share the point; here edge 1 runs along edge 0's line.
    let mut e = cross();
    e.nodes.push(node(4, (2, 3), (2, 3)));
    e.edges[1] = edge(1, 2, 4, &[(2, 0), (2, 3)]);
    e.edges.push(edge(2, 4, 3, &[(2, 3), (2, 4)]));
    let c = check(&e);
    assert!(c.is_legal(), "{:?}", c.violations);
    // Now a path running alongside through the same point on the same axis.
    let mut e = cross();
    e.nodes.push(node(5, (1, 0), (1, 0)));
    e.nodes.push(node(6, (3, 4), (3, 4)));
    e.edges
        .push(edge(2, 5, 6, &[(1, 0), (1, 2), (3, 2), (3, 4)]));
    fails(&e, |v| {
        matches!(
            v,
            Violation::SharedGridEdge { .. }
                | Violation::SharedTurn { .. }
                | Violation::ParallelOverlap { .. }
        )
    });
}
