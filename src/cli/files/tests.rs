use super::*;

/// A fresh folder under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-files-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Assert that `dir` holds only `name` (no temporary file was left), and
/// remove `dir`.
fn only_file_left(dir: &Path, name: &str) {
    let names: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names,
        [name],
        "only the output is left in {}",
        dir.display()
    );
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_plain_file_is_replaced_whole_and_no_temporary_is_left() {
    let dir = scratch("plain");
    let out = dir.join("out.txt");
    fs::write(&out, "old contents, longer than the new").unwrap();
    write_all_or_nothing(&[(out.clone(), "new".into())]).unwrap();
    assert_eq!(fs::read_to_string(&out).unwrap(), "new");
    only_file_left(&dir, "out.txt");
}

#[test]
fn a_link_stays_a_link_and_its_target_gets_the_output() {
    let dir = scratch("link");
    let target = dir.join("target.txt");
    let link = dir.join("link.txt");
    fs::write(&target, "old contents, longer than the new").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    check_output_paths(&[], &[link.as_path()]).unwrap();
    write_all_or_nothing(&[(link.clone(), "new".into())]).unwrap();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read_to_string(&target).unwrap(), "new");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fifo_stays_a_fifo_and_its_reader_gets_the_output() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("fifo");
    let fifo = dir.join("pipe");
    let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: `name` is a valid NUL-terminated path for the call's duration.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    // A device or FIFO may be named twice: writing it twice harms nothing.
    check_output_paths(&[], &[fifo.as_path(), fifo.as_path()]).unwrap();
    write_all_or_nothing(&[(fifo.clone(), "through the pipe".into())]).unwrap();
    assert_eq!(reader.join().unwrap(), "through the pipe");
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    only_file_left(&dir, "pipe");
}

#[test]
fn a_failed_write_leaves_the_other_outputs_untouched() {
    let dir = scratch("fail");
    let good = dir.join("good.txt");
    fs::write(&good, "before").unwrap();
    let bad = dir.join("missing-folder").join("bad.txt");
    let err = write_all_or_nothing(&[(good.clone(), "after".into()), (bad, "x".into())]);
    assert!(err.is_err());
    assert_eq!(fs::read_to_string(&good).unwrap(), "before");
    only_file_left(&dir, "good.txt");
}
