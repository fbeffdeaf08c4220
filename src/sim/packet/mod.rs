//! Packet-level (store-and-forward) simulation: packets advance one hop
//! per synchronous step and wait in bounded queues, unlike the delivery
//! cycles of [`super::Fabric`], where a message that loses is lost and
//! retried.
//!
//! [`butterfly`] is the butterfly `B(n)` of Maggs and Sitaraman ("Simple
//! algorithms for routing on butterfly networks with bounded queues"):
//! nodes, edges, unique paths, reachability, sub-butterflies, wraparound
//! and back-to-back, in closed form, each tested against a search of the
//! explicit graph. [`traffic`] makes the routing problems on its inputs:
//! random destinations, random permutations, bit-reversal, transpose and
//! identity, `k` packets per input.
//!
//! [`engine`] routes them step by step under queue models G and T with the
//! protocols of section 2; [`valiant`] adds the two phases of section 2.2
//! and [`adversary`] the lower-bound permutation of section 3.
//! [`delay_tree`] computes the bound of their Theorem 2.1 (a packet's
//! maximal full delay tree) and checks any greedy run against it; a plain
//! greedy simulator kept for tests (`reference`) cross-checks the engine.
//! [`wave`] routes by the wave/token algorithm of section 4 (model W),
//! with an independent invariant checker. [`dropping`] holds section 5's
//! algorithms that drop packets: circuit locking (model C) with Ranade's
//! stage 1 and the exact oracle for Koch's random problem, and the ATOM
//! store-and-forward model (model A). [`experiment`] runs trials over
//! sizes and queue sizes with each cell's bound beside it.

pub mod adversary;
pub mod butterfly;
pub mod delay_tree;
pub mod dropping;
pub mod engine;
pub mod experiment;
#[cfg(test)]
pub(crate) mod reference;
pub mod traffic;
pub mod valiant;
pub mod wave;
