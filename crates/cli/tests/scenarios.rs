//! A person's own scenarios: a folder offered by `volley serve --scenarios DIR`, and the guide's
//! examples (`docs/scenarios.md`), each checked by the binary as a user runs it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on what they did not expect

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A scratch directory of this test's own.
fn setup(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).unwrap();
    path
}

/// A bundled scenario's text from the repository.
fn bundled(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)).unwrap()
}

#[test]
fn serve_offers_a_folder_s_scenarios_and_tells_where_a_bad_one_is() {
    let dir = setup("serve-folder");
    let folder = dir.join("battles");
    std::fs::create_dir_all(&folder).unwrap();
    let mill = bundled("scenarios/itchy-scratchy/hochdorf-mill.toml");
    let first = mill.lines().next().unwrap().to_string();
    std::fs::write(folder.join("my-mill.toml"), mill.replacen(&first, "name = \"My mill\"", 1)).unwrap();
    std::fs::write(folder.join("broken.toml"), "name = \"Broken\"\nruleset = \"itchy-scratchy\"\nturn_limt = 3\n")
        .unwrap();
    std::fs::write(folder.join("notes.txt"), "not a scenario").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", "games.db", "--scenarios", "battles"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let offered = lines.next().unwrap().unwrap();
    let serving = lines.next().unwrap().unwrap();
    let addr = serving.split("http://").nth(1).and_then(|a| a.split('/').next()).unwrap().to_string();
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    s.write_all(b"GET /api/scenarios HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(offered, "1 scenario from battles beside the bundled ones; 1 left out (above)");
    assert!(serving.starts_with("volley is serving on http://127.0.0.1:"), "{serving}");
    assert!(err.starts_with("battles/broken.toml:3:1: unknown field `turn_limt`"), "{err}");
    let body: serde_json::Value = serde_json::from_str(answer.split_once("\r\n\r\n").unwrap().1).unwrap();
    let names: Vec<&str> = body.as_array().unwrap().iter().filter_map(|c| c["name"].as_str()).collect();
    assert!(names.contains(&"my-mill") && names.contains(&"crossroads") && !names.contains(&"broken"), "{names:?}");

    let o = Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", "games2.db", "--scenarios", "nowhere"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--scenarios nowhere: cannot read the folder"));
}
