//! Layout benchmarks: build, verify and measure an H-tree and a fat-tree
//! of 2^20 processors (target: under 5 s, memory linear in the area).
//!
//! Run with `cargo bench --bench layout`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use fabric::layout::check::check;
use fabric::layout::fattree::{fat_tree, Capacity, FatTreeSpec};
use fabric::layout::metrics::measure;

fn run(spec: &FatTreeSpec) -> u64 {
    let (e, _) = fat_tree(spec).expect("valid parameters");
    let c = check(&e);
    assert!(c.is_legal());
    measure(&e).area
}

fn layout_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("layout");
    group.sample_size(10);
    for (name, capacity) in [
        ("htree", Capacity::One),
        ("fat-tree-sqrt-over-lg", Capacity::SqrtOverLg),
    ] {
        let spec = FatTreeSpec {
            processors: 1 << 20,
            capacity,
            omega: 1,
            alpha: 1,
        };
        let (e, r) = fat_tree(&spec).expect("valid");
        let m = measure(&e);
        eprintln!(
            "{name}, 2^20 processors: side {} (recurrence {}), area {}, {} nodes, {} wires, wire length {} ({} at most)",
            m.width,
            r.sides.last().expect("sides"),
            m.area,
            e.nodes.len(),
            e.edges.len(),
            m.total_wire_length,
            m.max_wire_length
        );
        group.bench_function(format!("build-verify-measure/{name}/2^20"), |b| {
            b.iter(|| run(black_box(&spec)))
        });
    }
    // Folded and pyramid layouts: build, verify, measure (and for the
    // fat-pyramid the Theorem 18 survey).
    {
        use fabric::layout::folded::fold_and_squash_3d;
        use fabric::layout::pyramid::{fat_pyramid, survey, PyramidSpec};
        let e = fold_and_squash_3d(16, 12).expect("valid");
        let m = measure(&e);
        eprintln!(
            "tree-of-meshes-3d n 16 l 12: {} x {} x {}, volume {}, {} nodes, {} wires, longest {}",
            m.width,
            m.height,
            m.depth,
            m.area,
            e.nodes.len(),
            e.edges.len(),
            m.max_wire_length
        );
        group.bench_function("build-verify-measure/tree-of-meshes-3d/n16-l12", |b| {
            b.iter(|| {
                let e = fold_and_squash_3d(16, 12).expect("valid");
                assert!(check(&e).is_legal());
                measure(&e).area
            })
        });
        let spec3 = fabric::layout::fattree3d::FatTree3dSpec {
            processors: 1 << 18,
            capacity: Capacity::TwoThirdsOverLg,
            omega: 1,
        };
        let (e, _) = fabric::layout::fattree3d::fat_tree_3d(&spec3).expect("valid");
        let m = measure(&e);
        eprintln!(
            "fat-tree-3d 8^6: {} x {} x {}, volume {} ({:.2} V), {} nodes, {} wires, longest {}",
            m.width,
            m.height,
            m.depth,
            m.area,
            m.area as f64 / (1u64 << 18) as f64,
            e.nodes.len(),
            e.edges.len(),
            m.max_wire_length
        );
        group.bench_function("build-verify-measure/fat-tree-3d/8^6", |b| {
            b.iter(|| {
                let (e, _) = fabric::layout::fattree3d::fat_tree_3d(&spec3).expect("valid");
                assert!(check(&e).is_legal());
                measure(&e).area
            })
        });
        let spec = PyramidSpec::new(1 << 18).expect("valid");
        group.bench_function("build-verify-survey/fat-pyramid/4^9", |b| {
            b.iter(|| {
                let p = fat_pyramid(&spec).expect("valid");
                assert!(check(&p.embedding).is_legal());
                survey(&p.embedding, p.spec, 0).max_worst
            })
        });
    }
    group.finish();
    physical_benches(c);
}

/// Writing the 2^20-leaf H-tree as OASIS and as GDSII (docs/formats.md
/// section 6: under 5 s and 100 MB as OASIS), into memory.
fn physical_benches(c: &mut Criterion) {
    use fabric::physical::layer_map::Layers;
    use fabric::physical::{draw, gds, oasis, LayerMap, Units};
    let mut group = c.benchmark_group("physical");
    group.sample_size(10);
    let spec = FatTreeSpec {
        processors: 1 << 20,
        capacity: Capacity::One,
        omega: 1,
        alpha: 1,
    };
    let (e, _) = fat_tree(&spec).expect("valid");
    let units = Units::default();
    let layers = Layers::resolve(&LayerMap::defaults(), 1, true).expect("defaults");
    let oas = |e: &fabric::layout::Embedding| {
        let mut w = oasis::OasisWriter::new(Vec::with_capacity(1 << 27)).expect("memory");
        draw::draw_layout(e, &units, &layers, &mut w).expect("drawn");
        w.into_inner().len()
    };
    let gds_bytes = |e: &fabric::layout::Embedding| {
        let mut w = gds::GdsWriter::new(Vec::with_capacity(1 << 29), "fabric").expect("memory");
        draw::draw_layout(e, &units, &layers, &mut w).expect("drawn");
        w.into_inner().len()
    };
    eprintln!(
        "htree 2^20 drawn: OASIS {} bytes, GDSII {} bytes",
        oas(&e),
        gds_bytes(&e)
    );
    group.bench_function("write-oasis/htree/2^20", |b| b.iter(|| oas(black_box(&e))));
    group.bench_function("write-gds/htree/2^20", |b| {
        b.iter(|| gds_bytes(black_box(&e)))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(std::time::Duration::from_secs(20));
    targets = layout_benches
}
criterion_main!(benches);
