use super::super::check::check;
use super::super::metrics::measure;
use super::*;

#[test]
fn legal_and_the_side_of_the_recurrence() {
    for k in 1..=5 {
        let n = 4u64.pow(k);
        let e = butterfly_fat_tree(n).unwrap();
        let c = check(&e);
        assert!(c.is_legal(), "k {k}: {:?}", c.violations);
        let m = measure(&e);
        let s = *sides(k).last().unwrap();
        assert_eq!((m.width, m.height), (s, s), "k {k}");
        assert_eq!(closed_form_side(k), s);
        // n processors plus n/4 + n/8 + ... + 2^(k-1) switches.
        let switches: u64 = (1..=k).map(|l| n >> (l + 1)).sum();
        assert_eq!(e.nodes.len() as u64, n + switches);
        // Every switch below the top has two up-links; processors one.
        let below_top: u64 = (1..k).map(|l| n >> (l + 1)).sum();
        assert_eq!(e.edges.len() as u64, n + 2 * below_top);
    }
}

#[test]
fn each_switch_has_one_child_in_each_child_node() {
    let (n, k) = (256u64, 4u32);
    for l in 1..k {
        for a in 0..(n >> (l + 1)) {
            for parent in parents(l, a, k) {
                // Same 4-ary parent node.
                assert_eq!(parent >> l, a >> (l + 1));
            }
        }
    }
    for l in 2..=k {
        for parent in 0..(n >> (l + 1)) {
            let mut nodes: Vec<u64> = (0..(n >> l))
                .filter(|&a| parents(l - 1, a, k).contains(&parent))
                .map(|a| a >> (l - 2))
                .collect();
            nodes.sort_unstable();
            assert_eq!(nodes.len(), 4);
            nodes.dedup();
            assert_eq!(nodes.len(), 4, "switch ({l}, {parent})");
        }
    }
}
