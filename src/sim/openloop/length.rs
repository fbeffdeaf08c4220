//! Packet lengths: every packet `L` flits, or drawn per packet from a
//! distribution of mean `L` (`--packet-flits`), so that an offered rate
//! in flits creates `rate / L` packets per terminal per cycle whatever the
//! distribution.

use rand::Rng;
use serde::Serialize;

/// How long a packet is, `L` being `--packet-flits`.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum PacketLength {
    /// Every packet `L` flits.
    #[default]
    Fixed,
    /// Uniform on `1 ..= 2L - 1` flits.
    Uniform,
    /// Short control packets of 1 flit and long data packets of `2L - 1`
    /// flits, each with probability 1/2.
    Bimodal,
}

impl PacketLength {
    /// Every distribution.
    pub const ALL: [PacketLength; 3] = [
        PacketLength::Fixed,
        PacketLength::Uniform,
        PacketLength::Bimodal,
    ];

    /// The longest packet of mean `l`.
    pub fn longest(self, l: u32) -> u32 {
        match self {
            PacketLength::Fixed => l,
            PacketLength::Uniform | PacketLength::Bimodal => 2 * l - 1,
        }
    }

    /// One packet's flits, mean `l`; a fixed length draws nothing from
    /// `rng`.
    pub fn draw(self, l: u32, rng: &mut impl Rng) -> u32 {
        match self {
            PacketLength::Fixed => l,
            PacketLength::Uniform => rng.gen_range(1..=2 * l - 1),
            PacketLength::Bimodal => {
                if rng.gen_bool(0.5) {
                    1
                } else {
                    2 * l - 1
                }
            }
        }
    }

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            PacketLength::Fixed => "fixed",
            PacketLength::Uniform => "uniform",
            PacketLength::Bimodal => "bimodal",
        }
    }
}
