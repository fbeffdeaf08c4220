//! Why a simulated network or message set cannot be built. The messages
//! are the ones `fabric simulate` prints.

use thiserror::Error;

/// A network or message set the simulators cannot build.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SimError {
    /// A fat-tree needs a power of 2 processors.
    #[error("{n} processors: need a power of 2, at least 2")]
    NotPowerOf2 {
        /// The processors asked for.
        n: u32,
    },
    /// Mesh and adversarial traffic need a power of 4 processors.
    #[error("{n} processors: need a power of 4, at least 4")]
    NotPowerOf4 {
        /// The processors asked for.
        n: u32,
    },
    /// A fat-tree needs one capacity per level and the root's.
    #[error("{given} capacities for {n} processors; need {need} (one per level and the root's)")]
    CapacityCount {
        /// Capacities given.
        given: usize,
        /// Processors of the tree.
        n: u32,
        /// Capacities needed.
        need: u32,
    },
    /// A channel without wires.
    #[error("a channel of capacity 0 cannot carry messages")]
    ZeroCapacity,
    /// A layout edge between ids that are not nodes of the fat-tree.
    #[error("edge {edge} joins node ids outside the fat-tree of {n} processors")]
    EdgeOutsideTree {
        /// The edge's id.
        edge: u32,
        /// Processors of the tree.
        n: u64,
    },
    /// A layout edge that is not a tree edge.
    #[error("edge {edge} does not join a node to its parent in the tree")]
    EdgeNotToParent {
        /// The edge's id.
        edge: u32,
    },
    /// A layout with fewer wires at a level than its channels need.
    #[error("the layout has {count} wires at level {level}; {channels} channels of capacity {cap} need {need}")]
    TooFewWires {
        /// Wires found at the level.
        count: u64,
        /// The level.
        level: usize,
        /// Channels at the level.
        channels: u64,
        /// Capacity of each.
        cap: u32,
        /// Wires needed.
        need: u64,
    },
    /// Wormhole routing injects and ejects through one link per processor.
    #[error("processor {processor} has {links} up links; wormhole routing needs one")]
    ProcessorUpLinks {
        /// The processor.
        processor: u32,
        /// Its up links.
        links: usize,
    },
    /// A wormhole switch serves a bounded number of inputs.
    #[error("node {node} has {inputs} input links; wormhole routing handles at most {max}")]
    TooManyInputs {
        /// The node.
        node: u32,
        /// Its input links.
        inputs: usize,
        /// The most handled.
        max: usize,
    },
    /// A wire-level network whose processors are not its first nodes.
    #[error("the processors must be the nodes 0 .. n")]
    ProcessorsFirst,
    /// A processor above the lowest level.
    #[error("processor {node} is not at level 0")]
    ProcessorLevel {
        /// The processor's node.
        node: u32,
    },
    /// A link that skips or stays on a level.
    #[error("link {link} joins levels {a} and {b}; links must join adjacent levels")]
    LinkLevels {
        /// The link.
        link: u32,
        /// Level of one end.
        a: u32,
        /// Level of the other end.
        b: u32,
    },
    /// A switch with nothing below it.
    #[error("switch {node} has no children")]
    NoChildren {
        /// The switch's node.
        node: u32,
    },
    /// A switch whose children's blocks leave gaps or overlap.
    #[error("switch {node}: its children's processors are not disjoint contiguous blocks")]
    ChildBlocks {
        /// The switch's node.
        node: u32,
    },
    /// A switch with two children over the same processors.
    #[error("switch {node}: two children cover the same processors")]
    SharedChildren {
        /// The switch's node.
        node: u32,
    },
    /// A parent whose block does not hold its child's.
    #[error("node {parent} is a parent of {child} but does not cover it")]
    ParentCover {
        /// The parent node.
        parent: u32,
        /// The child node.
        child: usize,
    },
    /// Two nodes of one level over partly shared processors.
    #[error("nodes of one level cover overlapping blocks [{0}, {1}) and [{2}, {3})")]
    OverlappingBlocks(u32, u32, u32, u32),
    /// Local traffic with a block size that does not divide the tree.
    #[error("local traffic: the subtree size {subtree} must be a power of 2 from 2 to {n}")]
    LocalSubtree {
        /// The block size asked for.
        subtree: u32,
        /// Processors of the network.
        n: u32,
    },
    /// Theorem 8's set with a load factor it cannot have.
    #[error("greedy-adversary: the load factor {lambda} must be a positive multiple of 12")]
    AdversaryLoad {
        /// The load factor asked for.
        lambda: u32,
    },
}
