use super::*;
use crate::sim::mesh::Topology;

#[test]
fn every_experiment_is_a_valid_sweep() {
    use clap::ValueEnum;
    for e in experiment::Experiment::value_variants() {
        let mut cells = Vec::new();
        for s in sweeps(*e) {
            cells_of(&s, 1, &mut cells).unwrap();
        }
        assert!(!cells.is_empty(), "{e:?}");
    }
}

#[test]
fn torus_steps_come_from_the_folded_layout() {
    let delay = crate::cli::parse_delay("linear").unwrap();
    let t = step_time(&Shape::new(8, 2, Topology::Torus).unwrap(), &delay, None);
    assert_eq!(t.longest_wire, 10);
    assert_eq!(t.bit_times_per_step, 11.0);
    let m = step_time(&Shape::new(200, 2, Topology::Mesh).unwrap(), &delay, None);
    assert_eq!(m.longest_wire, 1);
    assert!(m.source.contains("closed forms"));
}

/// The report names every algorithm, strategy, problem and phase control
/// as the command line does, in snake_case.
#[test]
fn report_names_are_flag_names() {
    use clap::ValueEnum;
    fn same<T: ValueEnum + serde::Serialize>() {
        for v in T::value_variants() {
            let flag = v.to_possible_value().unwrap().get_name().replace('-', "_");
            let yaml = serde_norway::to_string(v).unwrap();
            assert_eq!(yaml.trim(), flag);
        }
    }
    same::<crate::sim::mesh::algorithm::Algorithm>();
    same::<crate::sim::mesh::Strategy>();
    same::<crate::sim::mesh::traffic::Workload>();
    same::<crate::sim::mesh::Phasing>();
    same::<Topology>();
}
