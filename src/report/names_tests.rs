//! The plain names of the enums the reports print (`ALL` and `name()`,
//! which work without clap) are the values the command line takes.

use std::fmt::Debug;

use clap::ValueEnum;

/// `all` lists clap's values in clap's order and `name` spells each as
/// clap does.
fn agrees<T: ValueEnum + Copy + PartialEq + Debug>(all: &[T], name: fn(T) -> &'static str) {
    assert_eq!(all, T::value_variants(), "ALL is not clap's list");
    for &v in all {
        let clap_name = v.to_possible_value().expect("no value is skipped");
        assert_eq!(name(v), clap_name.get_name(), "{v:?}");
    }
}

#[test]
fn plain_names_are_the_command_line_values() {
    use crate::sim::packet::experiment::{Model, Routing, Workload};
    agrees(&Model::ALL, Model::name);
    agrees(&Workload::ALL, Workload::name);
    agrees(&Routing::ALL, Routing::name);
    use crate::sim::packet::engine::Protocol;
    agrees(&Protocol::ALL, Protocol::name);
    use crate::sim::circuit::{ExchangeKind, WireNetwork};
    agrees(&WireNetwork::ALL, WireNetwork::name);
    agrees(&ExchangeKind::ALL, ExchangeKind::name);
    use crate::sim::bb::traffic::Workload as BbWorkload;
    agrees(&BbWorkload::ALL, BbWorkload::name);
    use crate::channel::layer_model::LayerModel;
    agrees(&LayerModel::ALL, LayerModel::name);
    use crate::layout::LayoutKind;
    agrees(&LayoutKind::ALL, LayoutKind::name);
}
