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
//! identity, `k` packets per input. [`dropping`] holds the algorithms of
//! their section 5 that drop packets: circuit locking (back to back,
//! Koch's random problem, direct) with its exact oracle, and the ATOM
//! store-and-forward switch.

pub mod butterfly;
pub mod dropping;
pub mod traffic;
