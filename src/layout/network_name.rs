//! What a layout says it lays out: its file's `network` field, typed.

/// The network a layout lays out, as its file's `network` field names it:
/// one of the families' networks, or any other name a file gives. Built
/// from text with `From`, which keeps every spelling: a known name becomes
/// its variant, anything else [`NetworkName::Other`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NetworkName {
    /// `htree`: an H-tree (the fat-tree of capacity 1).
    Htree,
    /// `fat-tree`.
    FatTree,
    /// `butterfly-fat-tree`.
    ButterflyFatTree,
    /// `scalable-fat-tree`.
    ScalableFatTree,
    /// `tree-of-meshes`, in H-tree style or folded in 2-D.
    TreeOfMeshes,
    /// `tree-of-meshes-3d`: folded in 3-D.
    TreeOfMeshes3d,
    /// `fat-pyramid`.
    FatPyramid,
    /// `fat-tree-3d`.
    FatTree3d,
    /// `butterfly`: the butterfly `B(n)` of Maggs and Sitaraman.
    Butterfly,
    /// `mesh`: the `d`-dimensional mesh.
    Mesh,
    /// `torus`: the `d`-dimensional torus.
    Torus,
    /// `pruned-butterfly`: Bay and Bilardi's pruned butterfly.
    PrunedButterfly,
    /// `sorting-fat-tree`: Bay and Bilardi's sorting fat-tree.
    SortingFatTree,
    /// A name no family writes, as the file spells it.
    Other(String),
}

impl NetworkName {
    /// The names the families write, with their variants.
    const KNOWN: [(&'static str, NetworkName); 13] = [
        ("htree", NetworkName::Htree),
        ("fat-tree", NetworkName::FatTree),
        ("butterfly-fat-tree", NetworkName::ButterflyFatTree),
        ("scalable-fat-tree", NetworkName::ScalableFatTree),
        ("tree-of-meshes", NetworkName::TreeOfMeshes),
        ("tree-of-meshes-3d", NetworkName::TreeOfMeshes3d),
        ("fat-pyramid", NetworkName::FatPyramid),
        ("fat-tree-3d", NetworkName::FatTree3d),
        ("butterfly", NetworkName::Butterfly),
        ("mesh", NetworkName::Mesh),
        ("torus", NetworkName::Torus),
        ("pruned-butterfly", NetworkName::PrunedButterfly),
        ("sorting-fat-tree", NetworkName::SortingFatTree),
    ];

    /// The name as layout files spell it.
    pub fn as_str(&self) -> &str {
        match self {
            NetworkName::Other(name) => name,
            known => {
                NetworkName::KNOWN
                    .iter()
                    .find(|(_, k)| k == known)
                    .expect("every variant but Other is listed")
                    .0
            }
        }
    }
}

impl Default for NetworkName {
    /// The empty name.
    fn default() -> NetworkName {
        NetworkName::Other(String::new())
    }
}

impl From<&str> for NetworkName {
    fn from(name: &str) -> NetworkName {
        NetworkName::KNOWN
            .iter()
            .find(|(s, _)| *s == name)
            .map_or_else(|| NetworkName::Other(name.to_string()), |(_, k)| k.clone())
    }
}

impl From<String> for NetworkName {
    fn from(name: String) -> NetworkName {
        NetworkName::from(name.as_str())
    }
}

impl PartialEq<&str> for NetworkName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for NetworkName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (s, k) in NetworkName::KNOWN {
            assert_eq!(NetworkName::from(s), k);
            assert_eq!(k.to_string(), s);
        }
        let other = NetworkName::from("custom");
        assert_eq!(other, NetworkName::Other("custom".into()));
        assert_eq!(other.as_str(), "custom");
        assert!(NetworkName::FatTree == "fat-tree");
    }
}
