//! File input and output for the command line. Outputs are written to a
//! temporary file beside the target and renamed into place, so a reader
//! never sees a partial file, and a failed run leaves no new file behind.
//! A target that exists and is not a plain file (a device such as
//! `/dev/null`, a FIFO, a socket, or a symbolic link) is written in place
//! instead: renaming over it would replace the device or the link with a
//! plain file.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Read a whole text file, naming it in the error.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = fs::read(path).map_err(|e| Error::File {
        path: path.display().to_string(),
        message: format!("cannot read: {e}"),
    })?;
    String::from_utf8(bytes).map_err(|e| Error::File {
        path: path.display().to_string(),
        message: format!(
            "not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ),
    })
}

/// Whether `path` exists and is not a plain file: a device, a FIFO, a
/// socket or a symbolic link, written in place rather than replaced.
fn written_in_place(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_file())
}

/// Whether `path` leads to something other than a plain file (a device,
/// a FIFO, a socket): writing it twice does no harm.
fn leads_to_special(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

fn temp_path(path: &Path, k: usize) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    path.with_file_name(format!(".{name}.{}-{k}.tmp", std::process::id()))
}

/// Refuse output paths that name the same file twice or an input file,
/// `-` (these outputs go to files only), a folder, or a file in a folder
/// that does not exist or cannot be written to. Run before any work, so a
/// long job never ends in an output it cannot write.
pub fn check_output_paths(inputs: &[&Path], outputs: &[&Path]) -> Result<()> {
    for out in outputs {
        check_writable(out)?;
    }
    let same = |a: &Path, b: &Path| {
        a == b || matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    };
    for (k, out) in outputs.iter().enumerate() {
        if let Some(input) = inputs.iter().find(|i| same(i, out)) {
            return Err(Error::Usage(format!(
                "output {} would overwrite the input {}",
                out.display(),
                input.display()
            )));
        }
        if !leads_to_special(out) && outputs[..k].iter().any(|o| same(o, out)) {
            return Err(Error::Usage(format!(
                "two outputs are both written to {}",
                out.display()
            )));
        }
    }
    Ok(())
}

/// `out` can be created or replaced: not `-`, not a folder, in a folder
/// that exists and takes a new file (a probe file is made and removed).
fn check_writable(out: &Path) -> Result<()> {
    let refuse = |message: String| {
        Err(Error::File {
            path: out.display().to_string(),
            message,
        })
    };
    if out.as_os_str() == "-" {
        return Err(Error::Usage(
            "this output is written to a file only: name a file instead of `-`".into(),
        ));
    }
    if out.is_dir() {
        return refuse("is a folder: name a file to write".into());
    }
    if written_in_place(out) {
        return Ok(());
    }
    let folder = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return refuse(format!(
            "cannot write: the folder {} does not exist (create it first)",
            folder.display()
        ));
    }
    let probe = temp_path(out, usize::MAX);
    match fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = fs::remove_file(&probe);
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => refuse(format!(
            "cannot write in the folder {}: {e}",
            folder.display()
        )),
    }
}

/// A function that writes an output's bytes into its temporary file.
pub type WriteFn<'a> = Box<dyn FnOnce(&mut dyn Write) -> io::Result<()> + 'a>;

/// What one output holds: text, or bytes that a function writes (a
/// binary format streamed straight into the temporary file).
pub enum Contents<'a> {
    /// The whole text.
    Text(String),
    /// A function that writes the bytes.
    Stream(WriteFn<'a>),
}

impl std::fmt::Debug for Contents<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contents::Text(t) => write!(f, "Text({} bytes)", t.len()),
            Contents::Stream(_) => f.write_str("Stream"),
        }
    }
}

/// Write every `(path, contents)` pair, or none: all temporary files are
/// written first, then the targets written in place (devices, FIFOs,
/// links; see the module docs), and the temporary files are renamed only
/// when every write succeeded. (A rename failing after another succeeded,
/// which needs the directory to change under us, is the one case left
/// where an earlier output stays replaced.)
pub fn write_all_or_nothing(outputs: &[(PathBuf, String)]) -> Result<()> {
    write_contents_all_or_nothing(
        outputs
            .iter()
            .map(|(p, text)| {
                let write: WriteFn<'_> =
                    Box::new(move |w: &mut dyn Write| w.write_all(text.as_bytes()));
                (p.clone(), Contents::Stream(write))
            })
            .collect(),
    )
}

/// [`write_all_or_nothing`] for outputs that are text or streamed bytes.
pub fn write_contents_all_or_nothing(outputs: Vec<(PathBuf, Contents<'_>)>) -> Result<()> {
    let mut written: Vec<PathBuf> = Vec::new();
    let cleanup = |temps: &[PathBuf]| {
        for t in temps {
            let _ = fs::remove_file(t);
        }
    };
    let (in_place, renamed): (Vec<_>, Vec<_>) = outputs
        .into_iter()
        .partition(|(path, _)| written_in_place(path));
    let paths: Vec<PathBuf> = renamed.iter().map(|(p, _)| p.clone()).collect();
    for (k, (path, contents)) in renamed.into_iter().enumerate() {
        let tmp = temp_path(&path, k);
        if let Err(e) = fs::File::create(&tmp).and_then(|file| fill(file, contents)) {
            cleanup(&written);
            let _ = fs::remove_file(&tmp);
            return Err(cannot_write(path.as_ref(), &e));
        }
        written.push(tmp);
    }
    for (path, contents) in in_place {
        let result = fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(&path)
            .and_then(|file| fill(file, contents));
        if let Err(e) = result {
            cleanup(&written);
            return Err(cannot_write(path.as_ref(), &e));
        }
    }
    for (k, path) in paths.iter().enumerate() {
        if let Err(e) = fs::rename(&written[k], path) {
            cleanup(&written[k..]);
            return Err(cannot_write(path.as_ref(), &e));
        }
    }
    Ok(())
}

/// The error for an output that could not be written.
fn cannot_write(path: &Path, e: &io::Error) -> Error {
    Error::File {
        path: path.display().to_string(),
        message: format!("cannot write: {e}"),
    }
}

/// Write `contents` into `file` through a buffer, and flush it.
fn fill(file: fs::File, contents: Contents<'_>) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 20, file);
    match contents {
        Contents::Text(text) => out.write_all(text.as_bytes())?,
        Contents::Stream(write) => write(&mut out)?,
    }
    out.flush()
}

#[cfg(all(test, unix))]
mod tests;
