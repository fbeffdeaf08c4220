//! The physical outputs of `fabric route` and `fabric layout`: `--gds`,
//! `--oasis` (with `--layer-map`, `--pitch`, `--wire-width`) and, for a
//! routed channel, `--def` and `--lef`. The arguments are checked into a
//! [`PhysicalPlan`] before any long work; once the result is verified the
//! plan gives the outputs (binary ones streamed into their files) and the
//! summary lines.

use std::path::{Path, PathBuf};

use super::files::Contents;
use super::read_text;
use crate::channel::problem::ChannelProblem;
use crate::channel::solution::ChannelSolution;
use crate::error::{Error, Result};
use crate::layout::Embedding;
use crate::physical::layer_map::Layers;
use crate::physical::tally::Tally;
use crate::physical::{self, draw, gds, oasis, LayerMap, Units};

/// Outputs to write, with the summary lines to print after them.
pub type Outputs<'a> = (Vec<(PathBuf, Contents<'a>)>, Vec<String>);

/// GDSII and OASIS output, shared by `route` and `layout`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct PhysicalArgs {
    /// Write the drawing as GDSII (docs/formats.md section 6).
    #[arg(long, value_name = "FILE")]
    pub gds: Option<PathBuf>,
    /// Write the drawing as OASIS: the compact form, for large layouts.
    #[arg(long, value_name = "FILE")]
    pub oasis: Option<PathBuf>,
    /// GDS layer/datatype of drawn layers, over the defaults (metalK 10K/0,
    /// nodeK 10K+1/0, viaK 10K+5/0, label 1/0, boundary 0/0): lines `NAME
    /// LAYER[/DATATYPE]`.
    #[arg(long, value_name = "FILE")]
    pub layer_map: Option<PathBuf>,
    /// Grid pitch of the physical outputs, in database units of 1 nm
    /// [default: 200].
    #[arg(long, value_name = "DBU")]
    pub pitch: Option<i64>,
    /// Wire width of the physical outputs, in database units; even, less
    /// than the pitch [default: 100].
    #[arg(long, value_name = "DBU")]
    pub wire_width: Option<i64>,
}

/// DEF and LEF output of `route`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct DefArgs {
    /// Write the routed channel as DEF: nets with their routed wiring,
    /// pins; `fabric verify PROBLEM FILE.def` reads it back.
    #[arg(long, value_name = "FILE")]
    pub def: Option<PathBuf>,
    /// Write the LEF of the routing's technology (layers, pitch, vias).
    #[arg(long, value_name = "FILE")]
    pub lef: Option<PathBuf>,
}

/// The physical outputs asked for, checked.
#[derive(Clone, Debug, Default)]
pub struct PhysicalPlan {
    units: Units,
    map: LayerMap,
    gds: Option<PathBuf>,
    oasis: Option<PathBuf>,
    def: Option<PathBuf>,
    lef: Option<PathBuf>,
}

impl PhysicalPlan {
    /// Check the arguments: the units, the layer map file read, and no
    /// option for outputs that were not asked for.
    pub fn new(args: &PhysicalArgs, def: Option<&DefArgs>) -> Result<PhysicalPlan> {
        let (def_path, lef_path) = def.map_or((None, None), |d| (d.def.clone(), d.lef.clone()));
        let stream = args.gds.is_some() || args.oasis.is_some();
        if args.layer_map.is_some() && !stream {
            return Err(Error::Usage(
                "--layer-map applies to --gds and --oasis".into(),
            ));
        }
        if (args.pitch.is_some() || args.wire_width.is_some())
            && !stream
            && def_path.is_none()
            && lef_path.is_none()
        {
            return Err(Error::Usage(
                "--pitch and --wire-width apply to --gds, --oasis, --def and --lef".into(),
            ));
        }
        let units = Units::new(
            args.pitch.unwrap_or(physical::DEFAULT_PITCH),
            args.wire_width.unwrap_or(physical::DEFAULT_WIRE_WIDTH),
        )
        .map_err(Error::Usage)?;
        let map = match &args.layer_map {
            None => LayerMap::defaults(),
            Some(path) => {
                let text = read_text(path)?;
                LayerMap::parse(&text).map_err(|(line, message)| Error::File {
                    path: format!("{}:{line}", path.display()),
                    message,
                })?
            }
        };
        Ok(PhysicalPlan {
            units,
            map,
            gds: args.gds.clone(),
            oasis: args.oasis.clone(),
            def: def_path,
            lef: lef_path,
        })
    }

    /// Refuse a layer map that cannot draw `planes` layers (two drawn
    /// layers on one GDS layer, a layer past the defaults), before any long
    /// work when the count is known in advance.
    pub fn check_planes(&self, planes: u32, nodes: bool) -> Result<()> {
        if self.gds.is_some() || self.oasis.is_some() {
            Layers::resolve(&self.map, planes, nodes).map_err(Error::Usage)?;
        }
        Ok(())
    }

    /// The files it writes.
    pub fn paths(&self) -> Vec<&Path> {
        [&self.gds, &self.oasis, &self.def, &self.lef]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path)
            .collect()
    }

    /// Whether it writes anything.
    pub fn is_empty(&self) -> bool {
        self.paths().is_empty()
    }

    /// The outputs for a routed channel and the summary lines.
    pub fn channel_outputs<'a>(
        &'a self,
        problem: &'a ChannelProblem,
        s: &'a ChannelSolution,
    ) -> Result<Outputs<'a>> {
        let mut outputs = Vec::new();
        let mut lines = Vec::new();
        if self.gds.is_some() || self.oasis.is_some() {
            let layers = Layers::resolve(&self.map, s.layers, false).map_err(Error::Usage)?;
            let mut tally = Tally::new();
            draw::draw_channel(problem, s, &self.units, &layers, &mut tally)
                .map_err(Error::Draw)?;
            lines.push(self.summary(&tally, &layers));
            let draw = move |sink: &mut dyn physical::Sink| {
                draw::draw_channel(problem, s, &self.units, &layers, sink)
            };
            self.push_streams(&mut outputs, &tally, draw)?;
        }
        if let Some(path) = &self.def {
            outputs.push((
                path.clone(),
                Contents::Text(physical::def::def_text(problem, s, &self.units)),
            ));
        }
        if let Some(path) = &self.lef {
            outputs.push((
                path.clone(),
                Contents::Text(physical::lef::lef_text(s, &self.units)),
            ));
        }
        Ok((outputs, lines))
    }

    /// The outputs for a layout and the summary lines.
    pub fn layout_outputs<'a>(&'a self, e: &'a Embedding) -> Result<Outputs<'a>> {
        let mut outputs = Vec::new();
        let mut lines = Vec::new();
        if self.gds.is_some() || self.oasis.is_some() {
            let (z0, z1) = draw::layout_planes(e);
            let planes = u32::try_from(z1 - z0 + 1).map_err(|_| {
                Error::Usage(format!("{} planes are too many to draw", z1 - z0 + 1))
            })?;
            let layers = Layers::resolve(&self.map, planes, true).map_err(Error::Usage)?;
            let mut tally = Tally::new();
            draw::draw_layout(e, &self.units, &layers, &mut tally).map_err(Error::Draw)?;
            lines.push(self.summary(&tally, &layers));
            let draw = move |sink: &mut dyn physical::Sink| {
                draw::draw_layout(e, &self.units, &layers, sink)
            };
            self.push_streams(&mut outputs, &tally, draw)?;
        }
        Ok((outputs, lines))
    }

    /// The GDSII and OASIS streams of one drawing (GDSII refused when the
    /// drawing is past its 32-bit coordinates).
    fn push_streams<'a, F>(
        &'a self,
        outputs: &mut Vec<(PathBuf, Contents<'a>)>,
        tally: &Tally,
        draw: F,
    ) -> Result<()>
    where
        F: Fn(&mut dyn physical::Sink) -> std::io::Result<()> + Clone + 'a,
    {
        if let Some(path) = &self.gds {
            if let Some(b) = tally.top_bbox() {
                physical::check_gds_extent(b).map_err(Error::Usage)?;
            }
            let draw = draw.clone();
            outputs.push((
                path.clone(),
                Contents::Stream(Box::new(move |w| {
                    let mut g = gds::GdsWriter::new(w, "fabric")?;
                    draw(&mut g)
                })),
            ));
        }
        if let Some(path) = &self.oasis {
            outputs.push((
                path.clone(),
                Contents::Stream(Box::new(move |w| {
                    let mut o = oasis::OasisWriter::new(w)?;
                    draw(&mut o)
                })),
            ));
        }
        Ok(())
    }

    /// `physical: 3 cells, 1021 shapes (metal1 10/0: 510, ...), bbox ...`.
    fn summary(&self, tally: &Tally, layers: &Layers) -> String {
        let named = layers.named();
        let per_layer: Vec<String> = tally
            .top_layers()
            .iter()
            .map(|t| {
                let name = named
                    .iter()
                    .find(|(_, l)| *l == t.layer)
                    .map_or(String::new(), |(n, _)| format!("{n} "));
                format!("{name}{}: {}", t.layer, t.shapes)
            })
            .collect();
        let bbox = tally.top_bbox().unwrap_or_default();
        format!(
            "  physical: {} cell(s), {} shapes ({}); bbox ({}, {}) to ({}, {}) in 1 nm units, pitch {}, wire width {}",
            tally.cells(),
            tally.top_shapes(),
            per_layer.join(", "),
            bbox.lo.0,
            bbox.lo.1,
            bbox.hi.0,
            bbox.hi.1,
            self.units.pitch,
            self.units.wire_width
        )
    }
}
